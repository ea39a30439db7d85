// Checkouts: create, list, retrieve, process, deactivate, and the merchant's payment methods.
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
import { isRedirectMethod, type RedirectMethodId } from '../../domain/checkout.ts';
import { json } from '../../http/json.ts';
import {
  CheckoutCreateBodySchema,
  type CheckoutProcessBody,
  CheckoutProcessBodySchema,
} from '../../schemas/index.ts';
import {
  baseUrl,
  type RouteContext,
  type Routes,
  type SandboxContext,
  type SandboxEnv,
} from '../context.ts';
import { ApiError, invalid, missing, notFound, readApiJson } from '../errors.ts';
import { allow, PAYMENTS } from '../middleware/access.ts';
import { capBody } from '../middleware/body-limit.ts';
import { cardOutcome, detectNetwork, expiryInFuture, luhnValid } from '../simulation/cards.ts';
import { takeOutcome } from '../simulation/outcomes.ts';
import { availableMethods, methodAvailable } from '../simulation/payment-methods.ts';
import { authorizeCard, issueBoleto, newToken, setStatus } from '../simulation/payments.ts';
import type { CheckoutRecord, Frozen, KeptCard } from '../state/records.ts';
import { parse } from '../validate.ts';
import { checkoutJson } from './serialize.ts';

export function findCheckout(ctx: SandboxContext, id: string): Frozen<CheckoutRecord> {
  const checkout = ctx.store.get('checkouts', id);
  if (!checkout) throw notFound('Checkout not found');
  return checkout;
}

const respond = (ctx: SandboxContext, c: Frozen<CheckoutRecord>, status = 200) =>
  json(checkoutJson(c, ctx.store, ctx.config), status);

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
  return respond(ctx, checkout, 201);
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
  return respond(ctx, findCheckout(ctx, c.req.param('id')!));
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
  if (body.payment_type === 'card') {
    return body.token !== undefined
      ? payWithToken(ctx, checkout, body, body.token)
      : payWithCard(ctx, checkout, body, origin);
  }
  if (isRedirectMethod(body.payment_type)) {
    return payWithBank(ctx, checkout, body.payment_type, origin);
  }
  return payWithBoleto(ctx, checkout, origin);
}

function payWithToken(
  ctx: SandboxContext,
  checkout: Frozen<CheckoutRecord>,
  body: CheckoutProcessBody,
  token: string,
): Response {
  // The schema guarantees customer_id whenever a token is given.
  const customerId = body.customer_id!;
  if (checkout.customer_id !== undefined && checkout.customer_id !== customerId) {
    throw invalid('customer_id', "customer_id must be the checkout's customer");
  }
  const instrument = ctx.store.get('instruments', token);
  if (!instrument || instrument.customer_id !== customerId || !instrument.active) {
    throw invalid('token', 'token must be an active payment instrument of this customer');
  }
  authorizeCard(ctx, checkout, {
    card: { ...instrument.card },
    installments: body.installments ?? 1,
    saveCard: false,
    token,
    authenticated: true,
    // A saved card needs no challenge: any open one is abandoned.
    pending: 'replace',
  });
  return respond(ctx, checkout);
}

/** The control's outcome as the card table names it. */
const OVERRIDDEN = {
  declined: 'paid',
  paid: 'paid',
  challenge: 'challenge',
  technical_error: 'technical-error',
} as const;

function payWithCard(
  ctx: SandboxContext,
  checkout: Frozen<CheckoutRecord>,
  body: CheckoutProcessBody,
  origin: string,
): Response {
  const card = body.card;
  if (!card) throw missing('card', 'card is required when payment_type is card');
  if (!luhnValid(card.number)) throw invalid('card.number', 'card.number fails the Luhn check');
  if (!expiryInFuture(card.expiry_month, card.expiry_year, new Date(ctx.clock.now()))) {
    throw invalid('card.expiry_year', 'card.expiry_year and card.expiry_month are in the past');
  }
  if (ctx.config.country === 'US' && card.zip_code === undefined) {
    throw missing('card.zip_code', 'card.zip_code is required for merchants in the USA');
  }
  if (ctx.config.country !== 'US' && card.zip_code !== undefined) {
    throw invalid('card.zip_code', 'card.zip_code applies only to merchants in the USA');
  }
  const saveCard = body.mandate !== undefined;
  if (saveCard || checkout.purpose === 'SETUP_RECURRING_PAYMENT') {
    if (!saveCard) throw missing('mandate', 'mandate is required to set up recurring payments');
    if (checkout.customer_id === undefined) {
      throw missing('customer_id', 'the checkout needs a customer_id to save a card');
    }
    if (!ctx.store.has('customers', checkout.customer_id)) {
      throw invalid('customer_id', "the checkout's customer_id names no customer");
    }
  }
  const detected = detectNetwork(card.number);
  // Only the last four digits and the network are kept: never the number or the CVV.
  const summary: KeptCard = {
    last_4_digits: card.number.slice(-4),
    type: detected === 'UNKNOWN' ? card.type : detected,
  };
  const installments = body.installments ?? 1;
  // The outcome control first (POST /sandbox/outcomes), else the card table.
  const chosen = takeOutcome(ctx.store, card.number, checkout.amount);
  const outcome = chosen === undefined ? cardOutcome(card.number) : OVERRIDDEN[chosen];
  if (outcome !== 'challenge') {
    authorizeCard(ctx, checkout, {
      card: summary,
      installments,
      saveCard,
      authenticated: true,
      verdict:
        outcome === 'technical-error'
          ? 'technical_error'
          : chosen === 'declined'
            ? 'decline'
            : chosen === 'paid'
              ? 'approve'
              : undefined,
      // This attempt replaces any open challenge or bank page.
      pending: 'replace',
    });
    return respond(ctx, checkout);
  }
  const md = newToken();
  // Only ASCII (a uuid and a hex token), so btoa takes it as it is.
  const paReq = btoa(JSON.stringify({ checkout: checkout.id, md }));
  ctx.store.update('checkouts', checkout.id, (c) => {
    c.pending = {
      kind: 'challenge',
      md,
      paReq,
      attempt: { card: summary, installments, saveCard },
      settled: false,
    };
  });
  const nextStep: Record<string, unknown> = {
    url: `${origin}/sandbox/3ds/${encodeURIComponent(checkout.id)}`,
    method: 'POST',
    mechanism: ['iframe', 'browser'],
    payload: {
      PaReq: paReq,
      MD: md,
      TermUrl: termUrl(origin, checkout.id),
    },
  };
  if (checkout.redirect_url !== undefined) nextStep.redirect_url = checkout.redirect_url;
  return json({ next_step: nextStep }, 202);
}

export const termUrl = (origin: string, id: string) =>
  `${origin}/v0.1/checkouts/${encodeURIComponent(id)}/complete_payment`;

function payWithBank(
  ctx: SandboxContext,
  checkout: Frozen<CheckoutRecord>,
  method: RedirectMethodId,
  origin: string,
): Response {
  if (checkout.redirect_url === undefined) {
    throw missing('redirect_url', `the checkout needs a redirect_url to pay with ${method}`);
  }
  const tx = newToken();
  ctx.store.update('checkouts', checkout.id, (c) => {
    c.pending = { kind: 'bank', method, tx, settled: false };
  });
  const url = `${origin}/sandbox/bank/${method}/${encodeURIComponent(checkout.id)}`;
  return json(
    {
      next_step: {
        url,
        method: 'GET',
        redirect_url: checkout.redirect_url,
        mechanism: ['browser'],
        payload: { tx },
        full: `${url}?tx=${tx}`,
      },
    },
    202,
  );
}

function payWithBoleto(
  ctx: SandboxContext,
  checkout: Frozen<CheckoutRecord>,
  origin: string,
): Response {
  issueBoleto(ctx, checkout, `${origin}/sandbox/boleto/${encodeURIComponent(checkout.id)}`);
  return respond(ctx, checkout);
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
  return respond(ctx, checkout);
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
