/**
 * What every route module of the handler is built from, and the pieces they share: the
 * provider call's context, the JSON body (content type, size cap, parse) and the checked
 * checkout id, each checked by middleware before the route (and its rate limit) runs.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { limitBody, readJsonBody, requireJsonType } from '../../http/body.ts';
import type { Baskets } from '../baskets/baskets.ts';
import { PaymentHandlerError } from '../errors.ts';
import { checkoutIdFrom } from '../guards/ids.ts';
import type { RateLimiter } from '../guards/rate-limit.ts';
import type { HandlerConfig } from '../options/index.ts';
import type { Dispatcher } from '../outcomes/dispatch.ts';
import type { OpenSteps } from '../outcomes/open-steps.ts';
import type { Watchlist } from '../outcomes/reconcile.ts';
import type { ViolationReceiver } from '../page/reports.ts';
import type { ProviderClient } from '../provider/client.ts';
import type { CallContext, HandlerEnv } from '../types.ts';

export interface RouteDeps {
  config: HandlerConfig;
  client: ProviderClient;
  /** One checkout per basket (baskets/baskets.ts). */
  baskets: Baskets;
  /** Runs onPaid/onFailed once per checkout for a final status (outcomes/dispatch.ts). */
  outcomes: Dispatcher;
  /** The checkouts reconciliation watches (outcomes/reconcile.ts). */
  watchlist: Watchlist;
  /** Each pending checkout's open 3DS or bank step (outcomes/open-steps.ts). */
  steps: OpenSteps;
  /** The limits checked before a checkout is created or paid (guards/rate-limit.ts). */
  limits: RateLimiter;
  /** What becomes of the payment pages' violation reports (page/reports.ts). */
  violations: ViolationReceiver;
}

/** The provider calls of a request carry its id. */
export function callContext(c: Context<HandlerEnv>): CallContext {
  return { requestId: c.get('requestId') };
}

/**
 * Content type (415), then size (413), checked before a route reads the body; a body the app
 * read before handing the request on (Elysia does, for a route that names `body`; a Hono
 * middleware that calls `c.req.json()`) is a 500
 * that says so, where reading it again would fail as a body cut short.
 */
export function jsonBody(deps: RouteDeps): MiddlewareHandler[] {
  const { log } = deps.config;
  const unread: MiddlewareHandler = async (c, next) => {
    if (c.req.raw.bodyUsed) {
      log({ level: 'error', message: BODY_USED, problem: 'body-used' });
      throw new PaymentHandlerError(500, 'INTERNAL', BODY_USED, 'body');
    }
    await next();
  };
  return [unread, requireJsonType, limitBody(deps.config.maxBodyBytes)];
}

const BODY_USED =
  "The request's body was read before the payment handler: hand it on unread (Elysia: a route taking no body; Hono: no c.req.json() or validator before it)";

/** The parsed JSON body, which the handler's routes all require: empty or broken is a 400 naming `body`. */
export async function requireJsonBody(request: Request): Promise<unknown> {
  const body = await readJsonBody(request);
  if (body.kind === 'json') return body.value;
  if (body.kind === 'empty') {
    throw new PaymentHandlerError(400, 'MISSING', 'The request body is empty', 'body');
  }
  throw new PaymentHandlerError(400, 'INVALID_JSON', body.message, 'body');
}

/** The route's `:id`, checked (400 naming `id`), as `c.var.checkoutId`. */
export const checkoutIdParam: MiddlewareHandler<HandlerEnv> = async (c, next) => {
  c.set('checkoutId', checkoutIdFrom(c.req.param('id'), 'id'));
  await next();
};
