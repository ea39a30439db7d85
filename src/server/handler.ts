/**
 * The companion handler the widget talks to: `(request: Request) => Promise<Response>`.
 * It creates checkouts with the amount the merchant's server decides, forwards
 * process requests after validating them, and confirms outcomes (return page,
 * webhook, polling) by reading the checkout from the provider itself.
 *
 * Wiring only, on Hono: middleware/ holds one middleware per concern (the request id, the
 * access log, the origin policy, the rate limits, what no route matched), each with its options
 * type, around the route modules (routes/) mounted under `basePath`; errors.ts turns anything
 * thrown into the JSON error shape; guards/ hold the checks themselves. Outcome hooks run off
 * the answers' path (outcomes/dispatch.ts); outcomes/reconcile.ts catches the outcomes that no
 * answer brought. telemetry/ records spans and metrics around all of it when OpenTelemetry is
 * there; with `telemetry: false` its no-op stands in, so nothing here branches on it.
 */
import { Hono } from 'hono';
import type { Checkout } from '../schemas/index.ts';
import { createBaskets } from './baskets/baskets.ts';
import { errorResponse, toHandlerError } from './errors.ts';
import { createRateLimiter } from './guards/rate-limit.ts';
import { accessLog } from './middleware/access-log.ts';
import { notFound } from './middleware/not-found.ts';
import { corsForAllowed } from './middleware/origin.ts';
import { requestId } from './middleware/request-id.ts';
import {
  type HandlerConfig,
  type PaymentHandlerOptions,
  type ResolvedCheckout,
  resolveOptions,
} from './options/index.ts';
import { createDispatcher } from './outcomes/dispatch.ts';
import { createOpenSteps } from './outcomes/open-steps.ts';
import { problemEntry } from './outcomes/problems.ts';
import {
  createWatchlist,
  type ReconcileOptions,
  type ReconcileReport,
} from './outcomes/reconcile.ts';
import { createOutcomeReporter } from './outcomes/report.ts';
import { createViolationReceiver } from './page/reports.ts';
import { createProviderClient } from './provider/client.ts';
import { checkoutRoutes } from './routes/checkouts.ts';
import { confirmRoutes } from './routes/confirm.ts';
import type { RouteDeps } from './routes/context.ts';
import { paymentMethodRoutes } from './routes/payment-methods.ts';
import { reportRoutes } from './routes/reports.ts';
import { checkAlone } from './store/alone.ts';
import { countingWith } from './store/counting.ts';
import { createMemoryStore } from './store/memory.ts';
import { partsOf } from './store/parts.ts';
import { createTelemetry, type Telemetry } from './telemetry/telemetry.ts';
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
   * Reads the due watched checkouts from the provider and runs the outcome hook of each final
   * one not run yet (once, whichever path gets there first), then does the same for this
   * handler's checkouts in the provider's list past a watermark (those the store never heard
   * of, or lost). Run it on a timer (every minute, say) on one or several instances. Resolves
   * once the hooks it ran have ended; rejects only when the store cannot be asked.
   */
  reconcile(options?: ReconcileOptions): Promise<ReconcileReport>;
}

function isPlatformContext(value: unknown): value is PlatformContext {
  return typeof (value as { waitUntil?: unknown } | null | undefined)?.waitUntil === 'function';
}

/** What the routes and the merchant's calls share: the provider client, the store's users. */
function createParts(config: HandlerConfig, telemetry: Telemetry): RouteDeps {
  const { provider, hooks } = config;
  const providerClient = createProviderClient({ ...provider, instrument: telemetry.exchange });
  const client = telemetry.client(providerClient);
  const store = config.store ?? partsOf(createMemoryStore());
  // The reporter runs the basket check, whose new checkouts join the watchlist, which reports
  // through the reporter: the set is reached through a function, called only once it exists.
  const baskets = createBaskets({
    config,
    client,
    records: store.records,
    watchlist: { watch: (id, soon) => watchlist.watch(id, soon) },
  });
  const onPaid = telemetry.hook('onPaid', hooks.onPaid);
  const report = createOutcomeReporter({
    merchantCode: provider.merchantCode,
    claims: store.claims,
    leaseMs: config.leaseMs,
    // Under onPaid's claim, so once: a basket's second payment is refunded, not fulfilled.
    async onPaid(checkout, run) {
      if ((await baskets.paidOnce(checkout)) === 'refunded') return;
      await onPaid?.(checkout, run);
    },
    onFailed: telemetry.hook('onFailed', hooks.onFailed),
    onProblem: (hook, checkoutId, problem) => config.log(problemEntry(hook, checkoutId, problem)),
  });
  const watchlist = createWatchlist({
    watchStore: store.watch,
    records: store.records,
    merchantCode: provider.merchantCode,
    client,
    report,
    holdMs: config.leaseMs,
    webhookUrl: `${config.publicUrl}/webhook`,
    baseUrl: provider.baseUrl,
    log: config.log,
  });
  // The sweep's watermark starts now, if the store answers (else when it first does).
  void watchlist.start();
  const steps = createOpenSteps({
    records: store.records,
    merchantCode: provider.merchantCode,
    log: config.log,
  });
  const outcomes = createDispatcher({
    report,
    watchlist,
    steps,
    waitMs: config.waitMs,
    log: config.log,
  });
  const limits = createRateLimiter(config.rateLimit, {
    counters: store.counters,
    merchantCode: provider.merchantCode,
    log: config.log,
    refused: telemetry.refused,
  });
  const violations = createViolationReceiver({
    hit: countingWith(store.counters?.hit, (error) =>
      config.log({
        level: 'warn',
        message: `payment page reports: the store failed (${String(error)}); counting in this instance until it is back`,
      }),
    ),
    merchantCode: provider.merchantCode,
    log: config.log,
    onPageViolation: hooks.onPageViolation,
    count: telemetry.violation,
  });
  return { config, client, baskets, outcomes, watchlist, steps, limits, violations };
}

/**
 * The Hono app: request id outermost (the server span and every log entry name it), then the
 * server span, the access log (when the merchant gave a logger) and CORS, around the routes;
 * what no route matched is a 404 or 405, and anything thrown the JSON error shape.
 */
function createApp(deps: RouteDeps, telemetry: Telemetry): Hono<HandlerEnv> {
  const { config } = deps;
  const { basePath, log } = config;
  const app = new Hono<HandlerEnv>();
  app.use(requestId());
  app.use(function serverSpan(c, next) {
    return telemetry.around(c, next);
  });
  if (config.loggerGiven) app.use(accessLog({ log, basePath }));
  app.use(`${basePath}/*`, corsForAllowed(config.allowedOrigins));
  app.route(`${basePath}/checkouts`, checkoutRoutes(deps));
  app.route(basePath || '/', paymentMethodRoutes(deps));
  app.route(basePath || '/', confirmRoutes(deps));
  app.route(basePath || '/', reportRoutes(deps));
  app.notFound(notFound(app, { basePath, log }));
  app.onError((error, c) =>
    errorResponse(error, {
      log: (entry) => log({ requestId: c.get('requestId'), ...entry }),
      redact: config.redact,
      baseUrl: config.provider.baseUrl,
    }),
  );
  return app;
}

/**
 * The widget's companion on the merchant's server: creates checkouts at the amount
 * `resolveCheckout` decides, passes payments on to the provider with the API key, confirms
 * each outcome with the provider and runs `onPaid` or `onFailed` once per checkout. Mount it
 * at `publicUrl`; on Node, through `toNodeListener()`. Throws at start on an option it cannot
 * use, naming it.
 */
export function createPaymentHandler(options: PaymentHandlerOptions): PaymentHandler {
  const resolved = resolveOptions(options);
  const telemetry = createTelemetry(resolved.telemetry, {
    leaseMs: resolved.leaseMs,
    log: resolved.log,
  });
  // Log entries get the trace, span and request ids of the request they were written in.
  const config: HandlerConfig = { ...resolved, log: telemetry.logger(resolved.log) };
  const { provider, hooks } = config;
  const deps = createParts(config, telemetry);
  const { baskets, watchlist } = deps;
  const app = createApp(deps, telemetry);

  const alone = config.store
    ? undefined
    : checkAlone(config.publicUrl, provider.baseUrl, config.log);
  const serve = (request: Request, env?: unknown, ctx?: unknown) => {
    alone?.();
    // The platform's waitUntil is read here, once, so no route has to ask Hono for an
    // execution context (which throws where the runtime passed none).
    const waitUntil =
      hooks.waitUntil ??
      (isPlatformContext(ctx) ? (promise: Promise<unknown>) => ctx.waitUntil(promise) : undefined);
    return Promise.resolve(app.fetch(request, { runtime: env, waitUntil }));
  };
  // The calls made while OpenTelemetry loads (the first few, if any) wait for it: none goes
  // unrecorded, and each later call finds it settled at the cost of one check.
  const afterLoad = <T>(start: () => Promise<T>): Promise<T> => {
    const loading = telemetry.ready();
    return loading === undefined ? start() : loading.then(start);
  };
  // Its parameters stay declared: Deno.serve passes nothing to a handler that declares none.
  const handler = (request: Request, env?: unknown, ctx?: unknown) =>
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
      afterLoad(() => telemetry.reconcile(() => watchlist.reconcile(reconcileOptions))),
  });
}
