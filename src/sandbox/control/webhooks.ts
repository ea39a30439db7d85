// Webhook deliveries and webhook faults, part of the control surface under /sandbox/:
//   GET    /sandbox/webhook-deliveries             newest first, every attempt of each
//   POST   /sandbox/webhook-deliveries/{id}/replay sends that payload again: 202 with the new one
//   POST   /sandbox/webhook-faults                 { kind, times?, delayMs? } -> 201
//   GET    /sandbox/webhook-faults                 the faults still to apply
//   DELETE /sandbox/webhook-faults                 clears them

import { Hono } from 'hono';
import * as z from 'zod/mini';
import { empty, json } from '../../http/json.ts';
import type { RouteContext, Routes, SandboxEnv } from '../context.ts';
import { notFound, readApiJson } from '../errors.ts';
import { allow, CONTROL } from '../middleware/access.ts';
import { capBody } from '../middleware/body-limit.ts';
import { unrecorded } from '../middleware/record-requests.ts';
import { parse } from '../validate.ts';

const WebhookFaultBodySchema = z.object({
  kind: z.enum(['drop', 'duplicate', 'delay', 'reorder']),
  times: z.optional(z.int().check(z.minimum(1), z.maximum(10_000))),
  delayMs: z.optional(z.int().check(z.minimum(0), z.maximum(600_000))),
});

function replay(c: RouteContext): Response {
  const ctx = c.env.sandbox;
  const delivery = ctx.webhooks.replay(c.req.param('id')!);
  if (!delivery) throw notFound('Webhook delivery not found');
  return json(delivery, 202);
}

async function addFault(c: RouteContext): Promise<Response> {
  const ctx = c.env.sandbox;
  const body = parse(WebhookFaultBodySchema, await readApiJson(c.req.raw));
  const fault = ctx.store.insert('webhookFaults', {
    kind: body.kind,
    delayMs: body.delayMs ?? 1_000,
    remaining: body.times ?? 1,
  });
  return json(fault, 201);
}

function clearFaults(c: RouteContext): Response {
  const ctx = c.env.sandbox;
  ctx.store.removeAll('webhookFaults');
  return empty(204);
}

const deliveries = '/sandbox/webhook-deliveries';
const faults = '/sandbox/webhook-faults';
const control = allow(CONTROL);

export const webhookRoutes: Routes = new Hono<SandboxEnv>()
  .get(deliveries, unrecorded, control, (c) => json(c.env.sandbox.webhooks.list()))
  .post(`${deliveries}/:id/replay`, control, capBody, replay)
  .post(faults, control, capBody, addFault)
  .get(faults, unrecorded, control, (c) => json(c.env.sandbox.store.list('webhookFaults')))
  .delete(faults, control, capBody, clearFaults);
