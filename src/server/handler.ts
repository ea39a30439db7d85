/**
 * The companion handler the widget talks to: `(request: Request) => Promise<Response>`.
 * It creates checkouts with the amount the merchant's server decides, forwards
 * process requests after validating them, and confirms outcomes (return page,
 * webhook, polling) by reading the checkout from the provider itself.
 *
 * Wiring only, on Hono: the request id, the access log, the origin policy and the 405 rule
 * wrap the route modules (routes/), mounted under `basePath`; error-map.ts turns anything
 * thrown into the JSON error shape; rate-limit.ts holds the limits the routes check before
 * they create or pay a checkout. Outcome hooks run off the answers' path (settle.ts);
 * reconcile.ts catches the outcomes that no answer brought.
 */
import { type Context, Hono } from 'hono';
import { routePath } from 'hono/route';
import { errorJson, handlerErrorBody } from '../http/errors.ts';
import { methodNotAllowedJson } from '../http/methods.ts';
import { REQUEST_ID_HEADER, requestIdFrom } from '../http/request-id.ts';
import type { Checkout } from '../schemas/index.ts';
import { createProviderClient } from './client.ts';
import { errorResponse } from './error-map.ts';
import { createMemoryIdempotencyStore } from './idempotency.ts';
import {
  type HandlerConfig,
  type PaymentHandlerOptions,
  type ResolvedCheckout,
  resolveOptions,
} from './options.ts';
import { corsForAllowed } from './origin.ts';
import { createOutcomeReporter, problemEntry } from './outcome.ts';
import { createRateLimiter } from './rate-limit.ts';
import { createOpenCheckouts, type ReconcileOptions, type ReconcileReport } from './reconcile.ts';
import { checkoutRoutes, createResolvedCheckout } from './routes/checkouts.ts';
import { confirmRoutes } from './routes/confirm.ts';
import type { HandlerEnv, RouteDeps } from './routes/deps.ts';
import { paymentMethodRoutes } from './routes/methods.ts';
import { createSettler } from './settle.ts';

export type { LogEntry, PaymentHandlerOptions, ResolvedCheckout } from './options.ts';
export type { ReconcileOptions, ReconcileReport } from './reconcile.ts';

/** A platform's per-request context, as Cloudflare Workers pass it to `fetch`. */
export interface PlatformContext {
  waitUntil(promise: Promise<unknown>): void;
}

/**
 * The handler: `(request) => Promise<Response>` on any runtime with Web `Request` and
 * `Response`, plus what the merchant's own server code calls.
 */
export interface PaymentHandler {
  /**
   * Answers one request. Runtimes that pass more (Bun's server, Deno's info, a Worker's
   * `env` and `ctx`) may: a `ctx` with `waitUntil` keeps background hooks alive, and the
   * client's address for the rate limits is read from `env` (`toNodeListener`'s, Bun's
   * server, Deno's info).
   */
  (request: Request, env?: unknown, ctx?: unknown): Promise<Response>;
  /**
   * Creates a checkout for what the server decided, as `POST /checkouts` does for the
   * widget's `order`: for pages that render `<payment-widget checkout-id=...>`. Watched by
   * `reconcile()` like every checkout the handler creates.
   */
  createCheckout(resolved: ResolvedCheckout): Promise<Checkout>;
  /**
   * Reads the open checkouts that are due from the provider and runs the outcome hook of each
   * final one that has not run yet (once, under the same claims as every other report). Run
   * it on a timer (every minute, say) on one or several instances. Rejects only when the
   * idempotency store cannot be asked.
   */
  reconcile(options?: ReconcileOptions): Promise<ReconcileReport>;
}

/** The route pattern below basePath, not the path: paths carry customer ids. */
function routeLabel(c: Context, config: HandlerConfig): string {
  const pattern = routePath(c, -1);
  if (!pattern.endsWith('*')) return pattern.slice(config.basePath.length) || '/';
  const path = c.req.path;
  const inside = path === config.basePath || path.startsWith(`${config.basePath}/`);
  return inside ? '(no such route)' : '(outside basePath)';
}

function isPlatformContext(value: unknown): value is PlatformContext {
  return typeof (value as { waitUntil?: unknown } | null | undefined)?.waitUntil === 'function';
}

export function createPaymentHandler(options: PaymentHandlerOptions): PaymentHandler {
  const config = resolveOptions(options);
  const client = createProviderClient({
    baseUrl: options.baseUrl,
    apiKey: options.apiKey,
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...(options.retries === undefined ? {} : { retries: options.retries }),
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
  });
  const store = options.idempotencyStore ?? createMemoryIdempotencyStore();
  const report = createOutcomeReporter({
    merchantCode: options.merchantCode,
    store,
    leaseMs: config.hookTimeoutMs,
    onPaid: options.onPaid,
    onFailed: options.onFailed,
    onProblem: (hook, checkoutId, problem) => config.log(problemEntry(hook, checkoutId, problem)),
  });
  const open = createOpenCheckouts({
    store,
    merchantCode: options.merchantCode,
    client,
    report,
    holdMs: config.hookTimeoutMs,
    log: config.log,
  });
  const settle = createSettler({ config, report, open });
  const limits = createRateLimiter(options.rateLimit, {
    store,
    merchantCode: options.merchantCode,
    log: config.log,
  });
  const deps: RouteDeps = { config, client, settle, open, limits };

  const app = new Hono<HandlerEnv>();
  app.use(async function requestId(c, next) {
    const id = requestIdFrom(c.req.header(REQUEST_ID_HEADER));
    c.set('requestId', id);
    await next();
    c.res.headers.set(REQUEST_ID_HEADER, id);
  });
  if (options.logger !== undefined) {
    app.use(async function accessLog(c, next) {
      const started = Date.now();
      await next();
      config.log({
        level: 'info',
        message: 'request',
        method: c.req.method,
        route: routeLabel(c, config),
        status: c.res.status,
        durationMs: Date.now() - started,
        requestId: c.get('requestId'),
      });
    });
  }
  const base = config.basePath;
  app.use(`${base}/*`, corsForAllowed(config.allowedOrigins));
  app.use(methodNotAllowedJson(app, handlerErrorBody));
  app.route(`${base}/checkouts`, checkoutRoutes(deps));
  app.route(base || '/', paymentMethodRoutes(deps));
  app.route(base || '/', confirmRoutes(deps));
  app.notFound(() => errorJson(404, 'NOT_FOUND', 'No such payment route'));
  app.onError((error) => errorResponse(error, config));

  const handler = (request: Request, env?: unknown, ctx?: unknown) =>
    Promise.resolve(app.fetch(request, env, isPlatformContext(ctx) ? (ctx as never) : undefined));
  return Object.assign(handler, {
    createCheckout: (resolved: ResolvedCheckout) => createResolvedCheckout(deps, resolved),
    reconcile: (reconcileOptions?: ReconcileOptions) => open.reconcile(reconcileOptions),
  });
}
