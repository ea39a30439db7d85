// The simulator's own control surface under /sandbox/: reset, fault injection
// and settling a boleto. Any valid test key may call it; it is never part of the provider API.

import * as z from 'zod/mini';
import { empty, json } from '../../http/json.ts';
import { ApiError, readJson } from '../http/errors.ts';
import { setStatus } from '../simulation/payments.ts';
import type { Route, RouteRequest } from '../http/route.ts';
import { checkoutJson } from '../provider/serialize.ts';
import { parse } from '../http/validate.ts';
import { findCheckout } from '../provider/checkouts.ts';
import { CONTROL } from '../http/scopes.ts';

const FaultBodySchema = z.object({
  method: z.optional(z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE'])),
  path: z.string().check(z.regex(/^\//, { error: 'must start with /' })),
  kind: z.enum(['latency', 'error', 'drop']),
  status: z.optional(z.union([z.literal(500), z.literal(502), z.literal(503)])),
  delayMs: z.optional(z.int().check(z.minimum(0), z.maximum(60_000))),
  times: z.optional(z.int().check(z.minimum(1), z.maximum(10_000))),
});

const SettleBodySchema = z.object({
  status: z.optional(z.enum(['PAID', 'FAILED'])),
});

function reset({ ctx }: RouteRequest): Response {
  ctx.reset();
  return empty(204);
}

async function addFault({ request, ctx }: RouteRequest): Promise<Response> {
  const body = parse(FaultBodySchema, await readJson(request));
  const fault = ctx.faults.add({
    ...(body.method !== undefined && { method: body.method }),
    path: body.path,
    kind: body.kind,
    status: body.status ?? 500,
    delayMs: body.delayMs ?? 1_000,
    remaining: body.times ?? 1,
  });
  return json(fault, 201);
}

function listFaults({ ctx }: RouteRequest): Response {
  return json(ctx.faults.list());
}

function clearFaults({ ctx }: RouteRequest): Response {
  ctx.faults.clear();
  return empty(204);
}

/** Pays (or, with `{ status: "FAILED" }`, fails) a checkout's pending boleto. */
async function settleBoleto({ request, params, ctx }: RouteRequest): Promise<Response> {
  const body = parse(SettleBodySchema, await readJson(request));
  const checkout = findCheckout(ctx, params.id!);
  const pending = checkout.transaction_ids
    .map((id) => ctx.store.transactions.get(id))
    .find((t) => t?.payment_type === 'BOLETO' && t.status === 'PENDING');
  if (!pending || checkout.status !== 'PENDING') {
    throw new ApiError(409, 'CONFLICT', 'Checkout has no pending boleto to settle');
  }
  const paid = (body.status ?? 'PAID') === 'PAID';
  pending.status = paid ? 'SUCCESSFUL' : 'FAILED';
  pending.updated_at = ctx.clock.iso();
  if (paid) {
    checkout.transaction_code = pending.transaction_code;
    checkout.transaction_id = pending.id;
  }
  setStatus(ctx, checkout, paid ? 'PAID' : 'FAILED');
  return json(checkoutJson(checkout, ctx.store, ctx.config));
}

export const controlRoutes: Route[] = [
  { method: 'POST', path: '/sandbox/reset', access: CONTROL, handler: reset },
  { method: 'GET', path: '/sandbox/faults', access: CONTROL, handler: listFaults },
  { method: 'POST', path: '/sandbox/faults', access: CONTROL, handler: addFault },
  { method: 'DELETE', path: '/sandbox/faults', access: CONTROL, handler: clearFaults },
  { method: 'POST', path: '/sandbox/checkouts/:id/settle', access: CONTROL, handler: settleBoleto },
];
