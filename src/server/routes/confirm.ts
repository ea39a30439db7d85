/**
 * The two ways an outcome reaches the handler besides polling: `GET /return` (the
 * checkout's redirect_url, where the browser lands after a full-page 3DS or bank page) and
 * `POST /webhook` (the checkout's return_url, which the provider calls). Both re-read the
 * checkout from the provider; the request itself is only a hint.
 */
import { Hono } from 'hono';
import { isFinalStatus } from '../../domain/checkout.ts';
import { errorJson } from '../../http/errors.ts';
import { empty } from '../../http/json.ts';
import { isRecord } from '../../shared/record.ts';
import { requestedResultPage } from '../baskets/result-page.ts';
import { PaymentHandlerError } from '../errors.ts';
import { checkoutIdFrom } from '../guards/ids.ts';
import { refuseForeignOrigin } from '../middleware/origin.ts';
import { ProviderError } from '../provider/errors.ts';
import type { HandlerEnv } from '../types.ts';
import { callContext, jsonBody, type RouteDeps, requireJsonBody } from './context.ts';
import { forFrame, returnFramePage } from './return-frame.ts';

/** A store outage is not ours to time; a few seconds keeps a retrying provider gentle. */
const STORE_RETRY_AFTER_S = 5;

/** Appends `key=value` to an absolute or site-relative URL. */
function withParam(target: string, key: string, value: string): string {
  const absolute = /^[a-z][a-z0-9+.-]*:/i.test(target);
  const url = new URL(target, 'http://relative.invalid');
  url.searchParams.set(key, value);
  return absolute ? url.href : `${url.pathname}${url.search}${url.hash}`;
}

export function confirmRoutes(deps: RouteDeps): Hono<HandlerEnv> {
  const { client, config, outcomes, watchlist } = deps;
  const { log, resultPages } = config;
  const app = new Hono<HandlerEnv>();

  app.get('/return', async (c) => {
    const id = checkoutIdFrom(c.req.query('checkout_id'), 'checkout_id');
    c.set('checkoutId', id);
    // The checkout's own page (resolveCheckout's resultPage) wins; it confirms the outcome itself.
    const own = requestedResultPage((name) => c.req.query(name), config.allowedOrigins);
    if (own.refused) {
      log({
        level: 'warn',
        message:
          'return: a result_page that is neither a site path nor on allowedOrigins was ignored',
        checkoutId: id,
        problem: 'foreign-result-page',
      });
    }
    let target = resultPages.pending;
    try {
      const checkout = await client.checkouts.get(id, callContext(c));
      // The shopper is redirected at once; the hook runs behind the redirect.
      await outcomes.inBackground(checkout, c.env.waitUntil);
      if (isFinalStatus(checkout.status)) {
        target = checkout.status === 'PAID' ? resultPages.success : resultPages.failure;
      }
    } catch (error) {
      // The user is mid-navigation: a JSON error page would strand them. The
      // pending page confirms again; the webhook settles the hooks.
      if (!(error instanceof ProviderError)) throw error;
      log({
        level: 'warn',
        message: `return: checkout could not be read (${error.errorCode})`,
        checkoutId: id,
      });
    }
    const next = withParam(own.page ?? target, 'checkout_id', id);
    // In a frame: the widget's challenge frame stays on the handler's page, a framed shop's
    // frame goes on to `next` (return-frame.ts).
    if (forFrame(c.req.raw)) return returnFramePage(next);
    return empty(303, { location: next, 'cache-control': 'no-store' });
  });

  app.post('/webhook', refuseForeignOrigin(config.allowedOrigins), ...jsonBody(deps), async (c) => {
    const record = await requireJsonBody(c.req.raw);
    if (!isRecord(record)) {
      throw new PaymentHandlerError(400, 'INVALID', 'body must be a JSON object', 'body');
    }
    const eventType = record.event_type;
    if (eventType !== undefined && eventType !== 'CHECKOUT_STATUS_CHANGED') {
      // Acknowledged so the provider stops retrying an event we do not handle.
      return empty(204);
    }
    if (record.id != null && typeof record.id !== 'string') {
      throw new PaymentHandlerError(400, 'INVALID', 'id must be a string', 'id');
    }
    const id = checkoutIdFrom(record.id, 'id');
    c.set('checkoutId', id);
    // The body is only a hint: the status comes from the provider itself.
    const checkout = await client.checkouts.get(id, callContext(c));
    // The one route that waits for the hook: its answer decides whether the provider retries.
    const outcome = await outcomes.confirm(checkout);
    // Another report ran the hook, or runs it (reconcile() may have, before this webhook was
    // due), or the store is away (reconcile() runs it once it is back): the provider reaches
    // the handler, no lost-webhook warning for this checkout.
    if (outcome === 'already' || outcome === 'running' || outcome === 'unavailable') {
      void watchlist.heard(id);
    }
    // A non-2xx makes the provider deliver again, which runs the hook then.
    if (outcome === 'failed') {
      return errorJson(500, 'HOOK_FAILED', 'The outcome hook failed; deliver again later');
    }
    if (outcome === 'running') {
      // 503 with Retry-After: "not now", the one answer every webhook sender retries. The
      // claim is settled (done, or its lease over) by then: a retry then takes over a claim
      // whose instance died.
      return errorJson(
        503,
        'HOOK_RUNNING',
        'The outcome hook is running for this checkout; deliver again later',
        undefined,
        { 'retry-after': String(await outcomes.retryAfterS(checkout)) },
      );
    }
    if (outcome === 'unavailable') {
      return errorJson(
        503,
        'STORE_UNAVAILABLE',
        'The store cannot be reached; deliver again later',
        undefined,
        { 'retry-after': String(STORE_RETRY_AFTER_S) },
      );
    }
    return empty(204);
  });

  return app;
}
