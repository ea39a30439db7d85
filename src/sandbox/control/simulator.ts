// The simulator's own control surface under /sandbox/: reset and fault injection on the
// provider routes. Any valid test key may call it; it is never part of the provider API.

import { Hono } from 'hono';
import * as z from 'zod/mini';
import { empty, json } from '../../http/json.ts';
import type { RouteContext, Routes, SandboxEnv } from '../context.ts';
import { readApiJson } from '../errors.ts';
import { allow, CONTROL } from '../middleware/access.ts';
import { capBody } from '../middleware/body-limit.ts';
import { parse } from '../validate.ts';

const FaultBodySchema = z.object({
  method: z.optional(z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE'])),
  path: z.string().check(z.regex(/^\//, { error: 'must start with /' })),
  kind: z.enum(['latency', 'error', 'drop']),
  status: z.optional(z.union([z.literal(500), z.literal(502), z.literal(503)])),
  delayMs: z.optional(z.int().check(z.minimum(0), z.maximum(60_000))),
  times: z.optional(z.int().check(z.minimum(1), z.maximum(10_000))),
});

function reset(c: RouteContext): Response {
  const ctx = c.env.sandbox;
  ctx.reset();
  return empty(204);
}

async function addFault(c: RouteContext): Promise<Response> {
  const ctx = c.env.sandbox;
  const body = parse(FaultBodySchema, await readApiJson(c.req.raw));
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

function listFaults(c: RouteContext): Response {
  const ctx = c.env.sandbox;
  return json(ctx.store.list('faults'));
}

function clearFaults(c: RouteContext): Response {
  const ctx = c.env.sandbox;
  ctx.store.removeAll('faults');
  return empty(204);
}

const control = allow(CONTROL);

export const simulatorRoutes: Routes = new Hono<SandboxEnv>()
  .post('/sandbox/reset', control, capBody, reset)
  .get('/sandbox/faults', control, listFaults)
  .post('/sandbox/faults', control, capBody, addFault)
  .delete('/sandbox/faults', control, capBody, clearFaults);
