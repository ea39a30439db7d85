// The outcome control, part of the control surface under /sandbox/:
//   POST   /sandbox/outcomes   { outcome, card?, amount?, times? } -> 201
//   GET    /sandbox/outcomes   the outcomes still to apply, oldest (applied first) first
//   DELETE /sandbox/outcomes   clears them
// See simulation/outcomes.ts for how a payment meets them.

import * as z from 'zod/mini';
import { empty, json } from '../../http/json.ts';
import { readApiJson } from '../http/errors.ts';
import type { Route, RouteRequest } from '../http/route.ts';
import { CONTROL } from '../http/scopes.ts';
import { parse } from '../http/validate.ts';

const OutcomeBodySchema = z.object({
  outcome: z.enum(['declined', 'challenge', 'technical_error', 'paid']),
  // A whole card number (12 to 19 digits) or its last 4.
  card: z.optional(z.string().check(z.regex(/^(\d{4}|\d{12,19})$/))),
  amount: z.optional(z.number().check(z.positive())),
  times: z.optional(z.int().check(z.minimum(1), z.maximum(1_000))),
});

async function addOutcome({ request, ctx }: RouteRequest): Promise<Response> {
  const body = parse(OutcomeBodySchema, await readApiJson(request));
  const rule = ctx.store.insert('outcomes', {
    outcome: body.outcome,
    ...(body.card === undefined ? {} : { card: body.card }),
    ...(body.amount === undefined ? {} : { amount: body.amount }),
    remaining: body.times ?? 1,
  });
  return json(rule, 201);
}

function clearOutcomes({ ctx }: RouteRequest): Response {
  ctx.store.removeAll('outcomes');
  return empty(204);
}

const path = '/sandbox/outcomes';

export const outcomeRoutes: Route[] = [
  { method: 'POST', path, access: CONTROL, handler: addOutcome },
  {
    method: 'GET',
    path,
    access: CONTROL,
    recorded: false,
    handler: ({ ctx }) => json(ctx.store.list('outcomes')),
  },
  { method: 'DELETE', path, access: CONTROL, handler: clearOutcomes },
];
