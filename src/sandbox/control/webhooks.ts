// Webhook deliveries and webhook faults, part of the control surface under /sandbox/:
//   GET    /sandbox/webhook-deliveries             newest first, every attempt of each
//   POST   /sandbox/webhook-deliveries/{id}/replay sends that payload again: 202 with the new one
//   POST   /sandbox/webhook-faults                 { kind, times?, delayMs? } -> 201
//   GET    /sandbox/webhook-faults                 the faults still to apply
//   DELETE /sandbox/webhook-faults                 clears them

import * as z from 'zod/mini';
import { empty, json } from '../../http/json.ts';
import { notFound, readApiJson } from '../errors.ts';
import type { Route, RouteRequest } from '../middleware/route.ts';
import { CONTROL } from '../middleware/scopes.ts';
import { parse } from '../validate.ts';

const WebhookFaultBodySchema = z.object({
  kind: z.enum(['drop', 'duplicate', 'delay', 'reorder']),
  times: z.optional(z.int().check(z.minimum(1), z.maximum(10_000))),
  delayMs: z.optional(z.int().check(z.minimum(0), z.maximum(600_000))),
});

function replay({ params, ctx }: RouteRequest): Response {
  const delivery = ctx.webhooks.replay(params.id!);
  if (!delivery) throw notFound('Webhook delivery not found');
  return json(delivery, 202);
}

async function addFault({ request, ctx }: RouteRequest): Promise<Response> {
  const body = parse(WebhookFaultBodySchema, await readApiJson(request));
  const fault = ctx.store.insert('webhookFaults', {
    kind: body.kind,
    delayMs: body.delayMs ?? 1_000,
    remaining: body.times ?? 1,
  });
  return json(fault, 201);
}

function clearFaults({ ctx }: RouteRequest): Response {
  ctx.store.removeAll('webhookFaults');
  return empty(204);
}

const deliveries = '/sandbox/webhook-deliveries';
const faults = '/sandbox/webhook-faults';

export const webhookRoutes: Route[] = [
  {
    method: 'GET',
    path: deliveries,
    access: CONTROL,
    recorded: false,
    handler: ({ ctx }) => json(ctx.webhooks.list()),
  },
  { method: 'POST', path: `${deliveries}/:id/replay`, access: CONTROL, handler: replay },
  { method: 'POST', path: faults, access: CONTROL, handler: addFault },
  {
    method: 'GET',
    path: faults,
    access: CONTROL,
    recorded: false,
    handler: ({ ctx }) => json(ctx.store.list('webhookFaults')),
  },
  { method: 'DELETE', path: faults, access: CONTROL, handler: clearFaults },
];
