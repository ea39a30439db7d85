// Control routes that move a payment where only the outside world could: the bank pays (or
// refuses) a boleto, the cardholder's bank files a chargeback. Any valid test key may call
// them; they are never part of the provider API.
//   POST /sandbox/checkouts/{id}/settle          { status?: PAID | FAILED } a pending boleto
//   POST /sandbox/transactions/{id}/chargeback   { amount? } against a successful payment

import { Hono } from 'hono';
import * as z from 'zod/mini';
import { json } from '../../http/json.ts';
import { roundToMinorUnit } from '../../schemas/currencies.ts';
import { findCheckout } from '../api/lookups.ts';
import { checkoutJson, transactionFull } from '../api/serialize.ts';
import { baseUrl, type RouteContext, type Routes, type SandboxEnv } from '../context.ts';
import { ApiError, invalid, notFound, readApiJson, refuseOffMinorUnit } from '../errors.ts';
import { allow, CONTROL } from '../middleware/access.ts';
import { capBody } from '../middleware/body-limit.ts';
import { chargeBack, settleBoleto } from '../simulation/payments.ts';
import { parse } from '../validate.ts';

const SettleBodySchema = z.object({
  status: z.optional(z.enum(['PAID', 'FAILED'])),
});

const ChargebackBodySchema = z.object({
  amount: z.optional(z.number().check(z.positive({ error: 'must be greater than 0' }))),
});

/** Pays (or, with `{ status: "FAILED" }`, fails) a checkout's pending boleto. */
async function settle(c: RouteContext): Promise<Response> {
  const ctx = c.env.sandbox;
  const body = parse(SettleBodySchema, await readApiJson(c.req.raw));
  const checkout = findCheckout(ctx, c.req.param('id')!);
  const pending = checkout.transaction_ids
    .map((id) => ctx.store.get('transactions', id))
    .find((t) => t?.payment_type === 'BOLETO' && t.status === 'PENDING');
  if (!pending || checkout.status !== 'PENDING') {
    throw new ApiError(409, 'CONFLICT', 'Checkout has no pending boleto to settle');
  }
  settleBoleto(ctx, checkout, pending, (body.status ?? 'PAID') === 'PAID');
  return json(checkoutJson(checkout, ctx.store, ctx.config));
}

/** Files a chargeback (in full, or `amount`) against a successful payment. */
async function chargeback(c: RouteContext): Promise<Response> {
  const ctx = c.env.sandbox;
  const origin = baseUrl(c);
  const body = parse(ChargebackBodySchema, await readApiJson(c.req.raw));
  const txn = ctx.store.get('transactions', c.req.param('id')!);
  if (txn?.type !== 'PAYMENT') throw notFound('Transaction not found');
  if (txn.status !== 'SUCCESSFUL') {
    throw new ApiError(409, 'CONFLICT', 'Only a successful payment can be charged back');
  }
  const charged = txn.events
    .filter((e) => e.type === 'CHARGE_BACK')
    .reduce((sum, e) => sum + e.amount, 0);
  const open = roundToMinorUnit(txn.amount - charged, txn.currency);
  const amount = body.amount ?? open;
  refuseOffMinorUnit(amount, txn.currency);
  if (amount > open) {
    throw invalid('amount', `amount must not exceed the ${open} not yet charged back`);
  }
  return json(transactionFull(chargeBack(ctx, txn, amount), origin), 201);
}

const control = allow(CONTROL);

export const paymentControlRoutes: Routes = new Hono<SandboxEnv>()
  .post('/sandbox/checkouts/:id/settle', control, capBody, settle)
  .post('/sandbox/transactions/:id/chargeback', control, capBody, chargeback);
