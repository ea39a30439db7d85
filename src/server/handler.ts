/**
 * The companion handler the widget talks to: `(request: Request) => Promise<Response>`.
 * It creates checkouts with the amount the merchant's server decides, forwards
 * process requests after validating them, and confirms outcomes (return page,
 * webhook, polling) by reading the checkout from the provider itself.
 *
 * Wiring only, on Hono: the request id, the access log and the origin policy wrap the route
 * modules (routes/), mounted under `basePath`, and the 405 rule answers what no route matched; errors.ts turns anything
 * thrown into the JSON error shape; guards/ hold the checks the routes make before they call
 * the provider. Outcome hooks run off the answers' path (outcomes/dispatch.ts);
 * outcomes/reconcile.ts catches the outcomes that no answer brought. telemetry/ records spans
 * and metrics around all of it when OpenTelemetry is there, and is left out with
 * `telemetry: false`.
 */
import { type Context, Hono } from 'hono';
import { routePath } from 'hono/route';
import { errorJson, handlerErrorBody } from '../http/errors.ts';
import { notFoundOrMethodNotAllowed } from '../http/method-not-allowed.ts';
import type { Checkout } from '../schemas/index.ts';
import { REQUEST_ID_HEADER, requestIdFrom } from '../shared/request-id.ts';
import { createBaskets } from './baskets/baskets.ts';
import { errorResponse, toHandlerError } from './errors.ts';
import { corsForAllowed } from './guards/origin.ts';
import { createRateLimiter } from './guards/rate-limit.ts';
import {
  type HandlerConfig,
  type PaymentHandlerOptions,
  type ResolvedCheckout,
  resolveOptions,
} from './options/index.ts';
import { createDispatcher } from './outcomes/dispatch.ts';
import { createOpenSteps } from './outcomes/open-steps.ts';
import {
  createWatchlist,
  type ReconcileOptions,
  type ReconcileReport,
} from './outcomes/reconcile.ts';
import { createOutcomeReporter, problemEntry } from './outcomes/report.ts';
import { createProviderClient } from './provider/client.ts';
import { checkoutRoutes } from './routes/checkouts.ts';
import { confirmRoutes } from './routes/confirm.ts';
import type { RouteDeps } from './routes/context.ts';
import { paymentMethodRoutes } from './routes/payment-methods.ts';
import { createMemoryStore } from './store/memory.ts';
import { createTelemetry } from './telemetry/telemetry.ts';
import type { HandlerEnv, PlatformContext } from './types.ts';

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
   * The checkout for what the server decided, as `POST /checkouts` answers the widget's
   * `order`: for pages that render `<payment-widget checkout-id=...>`. With a `reference`
   * (the basket or order id), the basket's open checkout when its terms are unchanged, or its
   * paid one; else a new one. Watched by `reconcile()` like every checkout the handler creates.
   * Rejects with a `PaymentHandlerError` (`code`, `status`, `retryable`, `message`), the same
   * error `POST /checkouts` would answer with: `PROVIDER_UNREACHABLE` (retryable: the
   * provider could not be reached, see `provider.baseUrl`), `NOT_AUTHORIZED` (see
   * `provider.apiKey`), `INVALID_RESOLVED_CHECKOUT` (what was passed cannot be a checkout).
   */
  createCheckout(resolved: ResolvedCheckout): Promise<Checkout & { id: string }>;
  /**
   * Reads the watched checkouts that are due from the provider and runs the outcome hook of each
   * final one that has not run yet (once, under the same claims as every other report), then
   * does the same for this handler's checkouts in the provider's list past a watermark (those
   * the store never heard of, or lost). Run it on a timer (every minute, say) on one or
   * several instances. Rejects only when the store cannot be asked.
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
  const resolved = resolveOptions(options);
  const telemetry = createTelemetry(resolved.telemetry, {
    leaseMs: resolved.leaseMs,
    log: resolved.log,
  });
  // Log entries get the trace and request ids of the request they were written in.
  const config: HandlerConfig =
    telemetry === undefined || !resolved.loggerGiven
      ? resolved
      : { ...resolved, log: telemetry.logger(resolved.log) };
  const { provider, hooks } = config;
  const providerClient = createProviderClient({ ...provider, instrument: telemetry?.exchange });
  const client = telemetry?.client(providerClient) ?? providerClient;
  const store = config.store ?? createMemoryStore();
  // The reporter runs the basket check, whose new checkouts join the watchlist, which reports
  // through the reporter: the set is reached through a function, called only once it exists.
  const baskets = createBaskets({
    config,
    client,
    store,
    watchlist: { watch: (id, soon) => watchlist.watch(id, soon) },
  });
  const onPaid = telemetry?.hook('onPaid', hooks.onPaid) ?? hooks.onPaid;
  const report = createOutcomeReporter({
    merchantCode: provider.merchantCode,
    store,
    leaseMs: config.leaseMs,
    // Under onPaid's claim, so once: a basket's second payment is refunded, not fulfilled.
    async onPaid(checkout) {
      if ((await baskets.paidOnce(checkout)) === 'refunded') return;
      await onPaid?.(checkout);
    },
    onFailed: telemetry?.hook('onFailed', hooks.onFailed) ?? hooks.onFailed,
    onProblem: (hook, checkoutId, problem) => config.log(problemEntry(hook, checkoutId, problem)),
  });
  const watchlist = createWatchlist({
    store,
    merchantCode: provider.merchantCode,
    client,
    report,
    holdMs: config.leaseMs,
    webhookUrl: `${config.publicUrl}/webhook`,
    log: config.log,
  });
  // The sweep's watermark starts now, if the store answers (else when it first does).
  void watchlist.start();
  const steps = createOpenSteps({ store, merchantCode: provider.merchantCode, log: config.log });
  const outcomes = createDispatcher({
    report,
    watchlist,
    steps,
    waitMs: config.waitMs,
    log: config.log,
  });
  const limits = createRateLimiter(config.rateLimit, {
    store,
    merchantCode: provider.merchantCode,
    log: config.log,
    refused: telemetry?.refused,
  });
  const deps: RouteDeps = { config, client, baskets, outcomes, watchlist, steps, limits };

  const app = new Hono<HandlerEnv>();
  app.use(async function requestId(c, next) {
    const id = requestIdFrom(c.req.header(REQUEST_ID_HEADER));
    c.set('requestId', id);
    // The server span: inside the request id (it names it), around everything else.
    await (telemetry === undefined ? next() : telemetry.around(c, next));
    c.res.headers.set(REQUEST_ID_HEADER, id);
  });
  if (config.loggerGiven) {
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
  app.route(`${base}/checkouts`, checkoutRoutes(deps));
  app.route(base || '/', paymentMethodRoutes(deps));
  app.route(base || '/', confirmRoutes(deps));
  app.notFound(
    notFoundOrMethodNotAllowed(app, handlerErrorBody, (c) => {
      const { path } = c.req;
      const inside = path === base || path.startsWith(`${base}/`);
      const message = inside
        ? `No payment route ${c.req.method} ${path}: the routes are ${base}/checkouts, ${base}/payment-methods, ${base}/return and ${base}/webhook`
        : `The payment handler got ${path}, outside its basePath ${base || '/'}: set basePath to the path it is mounted at, and the widget's endpoint to the same`;
      config.log({
        level: 'warn',
        message,
        problem: inside ? 'no-such-route' : 'outside-base-path',
      });
      return errorJson(404, 'NOT_FOUND', message);
    }),
  );
  app.onError((error, c) =>
    errorResponse(error, {
      log: (entry) => config.log({ requestId: c.get('requestId'), ...entry }),
      redact: config.redact,
      baseUrl: provider.baseUrl,
    }),
  );

  const serve = (request: Request, env?: unknown, ctx?: unknown) => {
    // The platform's waitUntil is read here, once, so no route has to ask Hono for an
    // execution context (which throws where the runtime passed none).
    const waitUntil =
      hooks.waitUntil ??
      (isPlatformContext(ctx) ? (promise: Promise<unknown>) => ctx.waitUntil(promise) : undefined);
    return Promise.resolve(app.fetch(request, { runtime: env, waitUntil }));
  };
  const reconcile = (reconcileOptions?: ReconcileOptions) =>
    telemetry === undefined
      ? watchlist.reconcile(reconcileOptions)
      : telemetry.reconcile(() => watchlist.reconcile(reconcileOptions));
  // The calls made while OpenTelemetry loads (the first few, if any) wait for it: none goes
  // unrecorded, and each later call finds it settled at the cost of one check.
  const afterLoad = <T>(start: () => Promise<T>): Promise<T> => {
    const loading = telemetry?.ready();
    return loading === undefined ? start() : loading.then(start);
  };
  // Its parameters stay declared: Deno.serve passes nothing to a handler that declares none.
  const handler =
    telemetry === undefined
      ? serve
      : (request: Request, env?: unknown, ctx?: unknown) =>
          telemetry.ready() === undefined
            ? serve(request, env, ctx)
            : afterLoad(() => serve(request, env, ctx));
  return Object.assign(handler, {
    // Rejects with the routes' typed errors: a PaymentHandlerError whose code, status and
    // retryable are what POST /checkouts would answer, the provider's error as its cause.
    createCheckout: (resolved: ResolvedCheckout) =>
      afterLoad(async () => {
        try {
          return (await baskets.checkoutFor(resolved)).checkout;
        } catch (error) {
          throw toHandlerError(error, {
            log: config.log,
            redact: config.redact,
            baseUrl: provider.baseUrl,
          });
        }
      }),
    reconcile: (reconcileOptions?: ReconcileOptions) =>
      afterLoad(() => reconcile(reconcileOptions)),
  });
}
