// Browser-facing routes: the 3DS challenge page, its TermUrl (complete_payment), the APM
// bank pages and the boleto voucher. No API key: the shopper's browser opens them. Each
// settles at most once; posting the same result again (a reload, a double submit) shows the
// same ending instead of an error. A step that is no longer open (settled, replaced by a newer
// attempt, deactivated, or unknown) answers a browser with a page that says so (closed.ts),
// and an API client with the provider's JSON error.

import { readFormBody } from '../../http/body.ts';
import type { SandboxContext } from '../context.ts';
import { ApiError, invalid, notFound } from '../http/errors.ts';
import type { Handler, Route, RouteRequest } from '../http/route.ts';
import { PUBLIC } from '../http/scopes.ts';
import { findCheckout, termUrl } from '../provider/checkouts.ts';
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
async function field(request: Request, url: URL, name: string): Promise<string | null> {
  if (request.method === 'POST') return (await readFormBody(request)).get(name);
  return url.searchParams.get(name);
}

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
function forPerson(step: 'challenge' | 'bank', handler: Handler): Handler {
  return async (req) => {
    try {
      return await handler(req);
    } catch (error) {
      // The step's own refusal, or its checkout unknown (findCheckout's 404): closed either way.
      const closed =
        error instanceof ClosedStep || (error instanceof ApiError && error.status === 404);
      if (!closed || !prefersHtml(req.request)) throw error;
      return closedStepPage(step, req.ctx.store.get('checkouts', req.params.id!), error.status);
    }
  };
}

function openChallenge(checkout: Frozen<CheckoutRecord>, md: string | null) {
  const pending = checkout.pending;
  if (pending?.kind !== 'challenge' || md === null || pending.md !== md) {
    throw new ClosedStep('MD', 'MD does not match an open 3DS challenge of this checkout');
  }
  return pending;
}

async function challenge({ request, url, params, ctx, origin }: RouteRequest): Promise<Response> {
  const checkout = findCheckout(ctx, params.id!);
  const pending = openChallenge(checkout, await field(request, url, 'MD'));
  // Answered already (in another tab, or before a reload): nothing is left to authenticate.
  if (pending.settled)
    throw new ClosedStep('MD', 'The 3DS challenge of this MD is already settled');
  return challengePage({
    merchantName: ctx.config.merchantName,
    amount: displayAmount(checkout.amount, checkout.currency),
    last4: pending.attempt.card.last_4_digits,
    md: pending.md,
    // Built here, not read from the request: the page must never post to a foreign URL.
    termUrl: termUrl(origin, checkout.id),
  });
}

/** Where the shopper goes once the checkout settled. */
function ending(checkout: Frozen<CheckoutRecord>): Response {
  if (checkout.redirect_url !== undefined) {
    const target = new URL(checkout.redirect_url);
    target.searchParams.set('checkout_id', checkout.id);
    return new Response(null, {
      status: 303,
      headers: { location: target.href, 'cache-control': 'no-store' },
    });
  }
  return challengeEndPage(checkout.id, checkout.status);
}

async function completePayment({ request, params, ctx }: RouteRequest): Promise<Response> {
  const form = await readFormBody(request);
  const checkout = findCheckout(ctx, params.id!);
  const pending = openChallenge(checkout, form.get('MD'));
  if (pending.settled) return ending(checkout);
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

function openBank(ctx: SandboxContext, params: Record<string, string>, tx: string | null) {
  const checkout = findCheckout(ctx, params.id!);
  const pending = checkout.pending;
  if (
    pending?.kind !== 'bank' ||
    pending.method !== params.method ||
    tx === null ||
    pending.tx !== tx
  ) {
    throw new ClosedStep('tx', 'tx does not match an open bank payment of this checkout');
  }
  return { checkout, pending };
}

function bank({ url, params, ctx }: RouteRequest): Response {
  const { checkout, pending } = openBank(ctx, params, url.searchParams.get('tx'));
  if (pending.settled) throw new ClosedStep('tx', 'The bank payment of this tx is already settled');
  return bankPage({
    method: pending.method,
    merchantName: ctx.config.merchantName,
    amount: displayAmount(checkout.amount, checkout.currency),
    action: url.pathname,
    tx: pending.tx,
  });
}

async function bankResult({ request, params, ctx }: RouteRequest): Promise<Response> {
  const form = await readFormBody(request);
  const { checkout, pending } = openBank(ctx, params, form.get('tx'));
  if (!pending.settled) {
    const result = form.get('result');
    if (result !== 'approve' && result !== 'decline') {
      throw invalid('result', 'result must be approve or decline');
    }
    settleBank(ctx, checkout, result === 'approve');
  }
  // APMs require a redirect_url at processing time; the fallback only covers data files
  // edited by hand.
  return checkout.redirect_url !== undefined ? ending(checkout) : bankDonePage(checkout.status);
}

function boleto({ params, ctx }: RouteRequest): Response {
  const checkout = findCheckout(ctx, params.id!);
  if (!checkout.boleto) throw notFound('Checkout has no boleto');
  return boletoPage({
    merchantName: ctx.config.merchantName,
    amount: displayAmount(checkout.amount, checkout.currency),
    barcode: checkout.boleto.barcode,
    status: checkout.status,
  });
}

export const pageRoutes: Route[] = [
  {
    method: 'GET',
    path: '/sandbox/3ds/:id',
    access: PUBLIC,
    handler: forPerson('challenge', challenge),
  },
  {
    method: 'POST',
    path: '/sandbox/3ds/:id',
    access: PUBLIC,
    handler: forPerson('challenge', challenge),
  },
  {
    method: 'POST',
    path: '/v0.1/checkouts/:id/complete_payment',
    access: PUBLIC,
    handler: forPerson('challenge', completePayment),
  },
  {
    method: 'GET',
    path: '/sandbox/bank/:method/:id',
    access: PUBLIC,
    handler: forPerson('bank', bank),
  },
  {
    method: 'POST',
    path: '/sandbox/bank/:method/:id',
    access: PUBLIC,
    handler: forPerson('bank', bankResult),
  },
  { method: 'GET', path: '/sandbox/boleto/:id', access: PUBLIC, handler: boleto },
];
