// Checkouts: create, list, retrieve, process, deactivate, and the merchant's payment methods.
// How each method pays is its own module (../methods/); this file checks what every process
// request must be and hands it to the method.
//
// State table (the seed's, plus what the reference spec shows beyond it):
//   (none)  --POST-->                    PENDING
//   PENDING --PUT card, no 3DS-->        PAID | FAILED (declined amount, 3DS technical error)
//   PENDING --PUT 3DS card-->            PENDING + open challenge (202); TermUrl -> PAID | FAILED
//   PENDING --PUT ideal/bancontact/blik->PENDING + open bank page (202); bank page -> PAID | FAILED
//   PENDING --PUT boleto-->              PENDING + PENDING BOLETO transaction (processed);
//                                        POST /sandbox/checkouts/{id}/settle -> PAID | FAILED
//   PENDING (not processed) --DELETE-->  EXPIRED
//   processed --PUT or DELETE-->         409 CHECKOUT_PROCESSED
//   EXPIRED, or past valid_until --PUT-> 409 CONFLICT (the generic state conflict of the spec)
//
// An open challenge or bank page does not make the checkout "processed": the shopper may
// close the iframe and pay again. A new PUT replaces the open action, and the old MD/tx is
// refused afterwards, so an abandoned challenge can never settle the checkout behind the
// shopper's back.

import { Hono } from 'hono';
import { cors } from 'hono/cors';
import { json } from '../../http/json.ts';
import { CheckoutCreateBodySchema, CheckoutProcessBodySchema } from '../../schemas/index.ts';
import {
  baseUrl,
  type RouteContext,
  type Routes,
  type SandboxContext,
  type SandboxEnv,
} from '../context.ts';
import { ApiError, invalid, missing, notFound, readApiJson } from '../errors.ts';
import { availableMethods, methodAvailable, SANDBOX_METHODS } from '../methods/index.ts';
import { allow, PAYMENTS } from '../middleware/access.ts';
import { capBody } from '../middleware/body-limit.ts';
import { setStatus } from '../simulation/payments.ts';
import type { CheckoutRecord, Frozen } from '../state/records.ts';
import { parse } from '../validate.ts';
import { checkoutAnswer, findCheckout } from './lookups.ts';
import { checkoutJson } from './serialize.ts';

async function create(c: RouteContext): Promise<Response> {
  const ctx = c.env.sandbox;
  const body = parse(CheckoutCreateBodySchema, await readApiJson(c.req.raw));
  if (body.merchant_code !== ctx.config.merchantCode) {
    throw invalid(
      'merchant_code',
      `merchant_code must be the sandbox merchant's code (${ctx.config.merchantCode})`,
    );
  }
  const payTo = body.pay_to_email ?? ctx.config.payToEmail;
  const sameReference = ctx.store.checkoutsWithReference(body.checkout_reference);
  if (sameReference.some((other) => other.pay_to_email === payTo)) {
    throw new ApiError(
      409,
      'DUPLICATED_CHECKOUT',
      'Checkout with this checkout reference and pay to email already exists',
    );
  }
  const date = ctx.clock.iso();
  const checkout = ctx.store.insert('checkouts', {
    checkout_reference: body.checkout_reference,
    amount: body.amount,
    currency: body.currency,
    merchant_code: body.merchant_code,
    pay_to_email: payTo,
    purpose: body.purpose ?? 'CHECKOUT',
    date,
    status: 'PENDING',
    status_history: [{ status: 'PENDING', at: date }],
    transaction_ids: [],
    processed: false,
    ...(body.description !== undefined && { description: body.description }),
    ...(body.return_url !== undefined && { return_url: body.return_url }),
    ...(body.redirect_url !== undefined && { redirect_url: body.redirect_url }),
    ...(body.customer_id !== undefined && { customer_id: body.customer_id }),
    ...(body.valid_until != null && { valid_until: body.valid_until }),
  });
  return checkoutAnswer(ctx, checkout, 201);
}

function list(c: RouteContext): Response {
  const ctx = c.env.sandbox;
  const ref = new URL(c.req.url).searchParams.get('checkout_reference');
  const found = ref === null ? ctx.store.list('checkouts') : ctx.store.checkoutsWithReference(ref);
  const items = found.map((checkout) => checkoutJson(checkout, ctx.store, ctx.config));
  return json(items);
}

function retrieve(c: RouteContext): Response {
  const ctx = c.env.sandbox;
  return checkoutAnswer(ctx, findCheckout(ctx, c.req.param('id')!));
}

function refuseUnprocessable(ctx: SandboxContext, checkout: Frozen<CheckoutRecord>): void {
  if (checkout.processed) {
    throw new ApiError(409, 'CHECKOUT_PROCESSED', 'Checkout is already processed');
  }
  if (checkout.status === 'EXPIRED') {
    throw new ApiError(409, 'CONFLICT', 'Checkout is deactivated (EXPIRED)');
  }
  if (checkout.valid_until !== undefined && Date.parse(checkout.valid_until) <= ctx.clock.now()) {
    throw new ApiError(409, 'CONFLICT', 'Checkout expired: valid_until has passed', 'valid_until');
  }
}

async function processCheckout(c: RouteContext): Promise<Response> {
  const ctx = c.env.sandbox;
  const id = c.req.param('id')!;
  refuseUnprocessable(ctx, findCheckout(ctx, id));
  const raw = await readApiJson(c.req.raw);
  // Looked up and checked again after the await: while this body arrived, a concurrent PUT may
  // have processed the checkout (it must never be charged twice), or a reset removed it.
  const checkout = findCheckout(ctx, id);
  const origin = baseUrl(c);
  refuseUnprocessable(ctx, checkout);
  const body = parse(CheckoutProcessBodySchema, raw);
  if (!methodAvailable(body.payment_type, checkout.currency)) {
    throw invalid(
      'payment_type',
      `payment_type ${body.payment_type} is not available for ${checkout.currency} checkouts`,
    );
  }
  if (body.installments !== undefined) {
    if (ctx.config.country !== 'BR') {
      throw invalid('installments', 'installments are available only to merchants in Brazil');
    }
    if (body.payment_type !== 'card') {
      throw invalid('installments', 'installments apply only to card payments');
    }
  }
  const method = SANDBOX_METHODS[body.payment_type];
  return method.process(ctx, checkout, body, origin) ?? checkoutAnswer(ctx, checkout);
}

function deactivate(c: RouteContext): Response {
  const ctx = c.env.sandbox;
  const checkout = findCheckout(ctx, c.req.param('id')!);
  if (checkout.processed) {
    throw new ApiError(409, 'CHECKOUT_PROCESSED', 'Checkout is already processed');
  }
  if (checkout.status === 'EXPIRED') {
    throw new ApiError(409, 'CONFLICT', 'Checkout is already deactivated');
  }
  setStatus(ctx, checkout, 'EXPIRED', (c) => {
    // An open challenge or bank page dies with the checkout.
    delete c.pending;
  });
  return checkoutAnswer(ctx, checkout);
}

function paymentMethods(c: RouteContext): Response {
  const ctx = c.env.sandbox;
  if (c.req.param('merchant_code') !== ctx.config.merchantCode) {
    throw notFound('Merchant not found');
  }
  const url = new URL(c.req.url);
  const amount = url.searchParams.get('amount');
  const currency = url.searchParams.get('currency') ?? undefined;
  if (amount !== null) {
    if (!/^\d+(\.\d+)?$/.test(amount)) throw invalid('amount', 'amount must be a number');
    if (currency === undefined) {
      throw missing('currency', 'currency must also be given when filtering by amount');
    }
  }
  if (currency !== undefined && !/^[A-Z]{3}$/.test(currency)) {
    throw invalid('currency', 'currency must be a three-letter ISO 4217 code');
  }
  return json({ available_payment_methods: availableMethods(currency).map((id) => ({ id })) });
}

/** Only the process route answers preflights, for a page that calls the API directly. */
const processCors = cors({
  // Bearer keys travel in a header, never in cookies, so `*` is safe and simplest.
  origin: (origin) => origin || '*',
  allowMethods: ['PUT', 'OPTIONS'],
  allowHeaders: ['authorization', 'content-type'],
  maxAge: 600,
});

export const checkoutRoutes: Routes = new Hono<SandboxEnv>()
  .get('/v0.1/checkouts', allow(PAYMENTS), list)
  .post('/v0.1/checkouts', allow(PAYMENTS), capBody, create)
  .get('/v0.1/checkouts/:id', allow(PAYMENTS), retrieve)
  // The seed leaves this route's scope "not shown"; `payments` is what a merchant key has.
  .options('/v0.1/checkouts/:id', processCors)
  .put('/v0.1/checkouts/:id', processCors, allow(PAYMENTS), capBody, processCheckout)
  .delete('/v0.1/checkouts/:id', allow(PAYMENTS), capBody, deactivate)
  .get('/v0.1/merchants/:merchant_code/payment-methods', allow(PAYMENTS), paymentMethods);
