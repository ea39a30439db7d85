// Browser-facing routes: the 3DS challenge page, its TermUrl (complete_payment), the APM
// bank pages and the boleto voucher. No API key: the shopper's browser opens them. Each step
// is answered once, as an issuer's or a bank's is: a step that is no longer open (settled,
// replaced by a newer attempt, deactivated, or unknown), opened or answered again (a page
// a browser kept in its back-forward cache, whatever its Cache-Control, or a double submit),
// answers a browser with a page that says so (closed.ts), never the ending again, and an API
// client with the provider's JSON error. The challenge page, posted while open, answers 303
// to its GET (Post/Redirect/Get): Back from the shop after it loads that page, now closed.

import { Hono } from 'hono';
import { readFormBody } from '../../http/body.ts';
import { findCheckout } from '../api/lookups.ts';
import { baseUrl, type RouteContext, type Routes, type SandboxEnv } from '../context.ts';
import { ApiError, invalid, notFound } from '../errors.ts';
import { termUrl } from '../methods/card.ts';
import { SANDBOX_METHODS } from '../methods/index.ts';
import { allow, PUBLIC } from '../middleware/access.ts';
import { capBody } from '../middleware/body-limit.ts';
import { authorizeCard, settleBank } from '../simulation/payments.ts';
import type { CheckoutRecord, Frozen } from '../state/records.ts';
import { closedStepPage, prefersHtml } from './closed.ts';
import {
  bankDonePage,
  bankPage,
  boletoPage,
  challengeEndPage,
  challengePage,
  displayAmount,
} from './html.ts';

/** Reads a field from the form body (POST) or the query string (GET). */
async function field(c: RouteContext, name: string): Promise<string | null> {
  if (c.req.method === 'POST') return (await readFormBody(c.req.raw)).get(name);
  return new URL(c.req.url).searchParams.get(name);
}

type Page = (c: RouteContext) => Response | Promise<Response>;

/** The provider's error for a step that is not open; a browser gets closed.ts's page instead. */
class ClosedStep extends ApiError {
  constructor(param: string, message: string) {
    super(400, 'INVALID', message, param);
  }
}

/**
 * A page route whose step may be closed: a browser that finds it closed (or the checkout
 * unknown) reads a page for a person; anything else, and every API client, the JSON error.
 */
function forPerson(step: 'challenge' | 'bank', page: Page): Page {
  return async (c) => {
    try {
      return await page(c);
    } catch (error) {
      // The step's own refusal, or its checkout unknown (findCheckout's 404): closed either way.
      const closed =
        error instanceof ClosedStep || (error instanceof ApiError && error.status === 404);
      if (!closed || !prefersHtml(c.req.raw)) throw error;
      const checkout = c.env.sandbox.store.get('checkouts', c.req.param('id')!);
      // Opened again (Back to it, a reload, an old tab's link), the page is what the step now
      // is, as a bank's "session ended" page is: 200, not an error the browser's console
      // reports. An answer posted to it keeps the refusal's 400; an unknown checkout its 404.
      const status = error instanceof ClosedStep && c.req.method === 'GET' ? 200 : error.status;
      return closedStepPage(step, checkout, status);
    }
  };
}

function openChallenge(checkout: Frozen<CheckoutRecord>, md: string | null) {
  const pending = checkout.pending;
  if (pending?.kind !== 'challenge' || md === null || pending.md !== md || pending.settled) {
    throw new ClosedStep('MD', 'MD does not match an open 3DS challenge of this checkout');
  }
  return pending;
}

/** A 303 to `location`: the browser follows it with a GET, which its history keeps. */
function seeOther(location: string): Response {
  return new Response(null, { status: 303, headers: { location, 'cache-control': 'no-store' } });
}

async function challenge(c: RouteContext): Promise<Response> {
  const ctx = c.env.sandbox;
  const checkout = findCheckout(ctx, c.req.param('id')!);
  // Answered already (in another tab, or before a reload): nothing is left to authenticate.
  const pending = openChallenge(checkout, await field(c, 'MD'));
  // Posted (PaReq, MD, TermUrl): the page again by GET, so that Back from the shop's return
  // page, or a reload, loads it again (the closed page, once answered) instead of a browser
  // asking to resend the form.
  // Only the query: the browser keeps the path it posted to, whatever serves the sandbox.
  if (c.req.method === 'POST') return seeOther(`?MD=${encodeURIComponent(pending.md)}`);
  return challengePage({
    merchantName: ctx.config.merchantName,
    amount: displayAmount(checkout.amount, checkout.currency),
    last4: pending.attempt.card.last_4_digits,
    md: pending.md,
    // Built here, not read from the request: the page must never post to a foreign URL.
    termUrl: termUrl(baseUrl(c), checkout.id),
  });
}

/** Where the shopper goes once the checkout settled. */
function ending(checkout: Frozen<CheckoutRecord>): Response {
  if (checkout.redirect_url !== undefined) {
    const target = new URL(checkout.redirect_url);
    target.searchParams.set('checkout_id', checkout.id);
    return seeOther(target.href);
  }
  return challengeEndPage(checkout.id, checkout.status);
}

async function completePayment(c: RouteContext): Promise<Response> {
  const ctx = c.env.sandbox;
  const form = await readFormBody(c.req.raw);
  const checkout = findCheckout(ctx, c.req.param('id')!);
  const pending = openChallenge(checkout, form.get('MD'));
  const paRes = form.get('PaRes');
  if (paRes !== 'Y' && paRes !== 'N') throw invalid('PaRes', 'PaRes must be Y or N');
  authorizeCard(ctx, checkout, {
    ...pending.attempt,
    card: { ...pending.attempt.card },
    authenticated: paRes === 'Y',
    pending: 'settle',
  });
  return ending(checkout);
}

function openBank(c: RouteContext, tx: string | null) {
  const checkout = findCheckout(c.env.sandbox, c.req.param('id')!);
  const pending = checkout.pending;
  if (
    pending?.kind !== 'bank' ||
    pending.method !== c.req.param('method') ||
    tx === null ||
    pending.tx !== tx ||
    pending.settled
  ) {
    throw new ClosedStep('tx', 'tx does not match an open bank payment of this checkout');
  }
  return { checkout, pending };
}

function bank(c: RouteContext): Response {
  const url = new URL(c.req.url);
  const { checkout, pending } = openBank(c, url.searchParams.get('tx'));
  return bankPage({
    bank: SANDBOX_METHODS[pending.method].name,
    merchantName: c.env.sandbox.config.merchantName,
    amount: displayAmount(checkout.amount, checkout.currency),
    action: c.env.sandbox.basePath + url.pathname,
    tx: pending.tx,
  });
}

async function bankResult(c: RouteContext): Promise<Response> {
  const form = await readFormBody(c.req.raw);
  const { checkout } = openBank(c, form.get('tx'));
  const result = form.get('result');
  if (result !== 'approve' && result !== 'decline') {
    throw invalid('result', 'result must be approve or decline');
  }
  settleBank(c.env.sandbox, checkout, result === 'approve');
  // APMs require a redirect_url at processing time; the fallback only covers data files
  // edited by hand.
  return checkout.redirect_url !== undefined ? ending(checkout) : bankDonePage(checkout.status);
}

function boleto(c: RouteContext): Response {
  const ctx = c.env.sandbox;
  const checkout = findCheckout(ctx, c.req.param('id')!);
  if (!checkout.boleto) throw notFound('Checkout has no boleto');
  return boletoPage({
    merchantName: ctx.config.merchantName,
    amount: displayAmount(checkout.amount, checkout.currency),
    barcode: checkout.boleto.barcode,
    status: checkout.status,
  });
}

const challengeRoute = forPerson('challenge', challenge);
const anyone = allow(PUBLIC);

export const pageRoutes: Routes = new Hono<SandboxEnv>()
  .get('/sandbox/3ds/:id', anyone, challengeRoute)
  .post('/sandbox/3ds/:id', anyone, capBody, challengeRoute)
  .post(
    '/v0.1/checkouts/:id/complete_payment',
    anyone,
    capBody,
    forPerson('challenge', completePayment),
  )
  .get('/sandbox/bank/:method/:id', anyone, forPerson('bank', bank))
  .post('/sandbox/bank/:method/:id', anyone, capBody, forPerson('bank', bankResult))
  .get('/sandbox/boleto/:id', anyone, boleto);
