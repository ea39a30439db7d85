// The outcome control, part of the control surface under /sandbox/:
//   POST   /sandbox/outcomes   { outcome, card?, amount?, times? } -> 201
//   GET    /sandbox/outcomes   the outcomes still to apply, oldest (applied first) first
//   DELETE /sandbox/outcomes   clears them
// See simulation/outcomes.ts for how a payment meets them.

import { Hono } from 'hono';
import * as z from 'zod/mini';
import { empty, json } from '../../http/json.ts';
import { decimalPlaces, mostDecimals } from '../../schemas/currencies.ts';
import type { RouteContext, Routes, SandboxEnv } from '../context.ts';
import { readApiJson } from '../errors.ts';
import { allow, CONTROL } from '../middleware/access.ts';
import { capBody } from '../middleware/body-limit.ts';
import { unrecorded } from '../middleware/record-requests.ts';
import { parse } from '../validate.ts';

const OutcomeBodySchema = z.object({
  outcome: z.enum(['declined', 'challenge', 'technical_error', 'paid']),
  // A whole card number (12 to 19 digits) or its last 4.
  card: z.optional(z.string().check(z.regex(/^(\d{4}|\d{12,19})$/))),
  // Matched in the payment's currency (simulation/outcomes.ts): one with more decimals than
  // any currency has would match no payment.
  amount: z.optional(
    z.number().check(
      z.positive(),
      z.refine((amount) => decimalPlaces(amount) <= mostDecimals(), {
        error: `must have at most ${mostDecimals()} decimal places`,
      }),
    ),
  ),
  times: z.optional(z.int().check(z.minimum(1), z.maximum(1_000))),
});

async function addOutcome(c: RouteContext): Promise<Response> {
  const ctx = c.env.sandbox;
  const body = parse(OutcomeBodySchema, await readApiJson(c.req.raw));
  const rule = ctx.store.insert('outcomes', {
    outcome: body.outcome,
    ...(body.card === undefined ? {} : { card: body.card }),
    ...(body.amount === undefined ? {} : { amount: body.amount }),
    remaining: body.times ?? 1,
  });
  return json(rule, 201);
}

function clearOutcomes(c: RouteContext): Response {
  const ctx = c.env.sandbox;
  ctx.store.removeAll('outcomes');
  return empty(204);
}

const path = '/sandbox/outcomes';
const control = allow(CONTROL);

export const outcomeRoutes: Routes = new Hono<SandboxEnv>()
  .post(path, control, capBody, addOutcome)
  .get(path, unrecorded, control, (c) => json(c.env.sandbox.store.list('outcomes')))
  .delete(path, control, capBody, clearOutcomes);
