// The simulator's own control surface under /sandbox/: reset and fault injection on the
// provider routes. Any valid test key may call it; it is never part of the provider API.

import * as z from 'zod/mini';
import { empty, json } from '../../http/json.ts';
import { readApiJson } from '../errors.ts';
import type { Route, RouteRequest } from '../middleware/route.ts';
import { CONTROL } from '../middleware/scopes.ts';
import { parse } from '../validate.ts';

const FaultBodySchema = z.object({
  method: z.optional(z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE'])),
  path: z.string().check(z.regex(/^\//, { error: 'must start with /' })),
  kind: z.enum(['latency', 'error', 'drop']),
  status: z.optional(z.union([z.literal(500), z.literal(502), z.literal(503)])),
  delayMs: z.optional(z.int().check(z.minimum(0), z.maximum(60_000))),
  times: z.optional(z.int().check(z.minimum(1), z.maximum(10_000))),
});

function reset({ ctx }: RouteRequest): Response {
  ctx.reset();
  return empty(204);
}

async function addFault({ request, ctx }: RouteRequest): Promise<Response> {
  const body = parse(FaultBodySchema, await readApiJson(request));
  const fault = ctx.store.insert('faults', {
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
  return json(ctx.store.list('faults'));
}

function clearFaults({ ctx }: RouteRequest): Response {
  ctx.store.removeAll('faults');
  return empty(204);
}

export const simulatorRoutes: Route[] = [
  { method: 'POST', path: '/sandbox/reset', access: CONTROL, handler: reset },
  { method: 'GET', path: '/sandbox/faults', access: CONTROL, handler: listFaults },
  { method: 'POST', path: '/sandbox/faults', access: CONTROL, handler: addFault },
  { method: 'DELETE', path: '/sandbox/faults', access: CONTROL, handler: clearFaults },
];
