/**
 * The companion handler the widget talks to: `(request: Request) => Promise<Response>`.
 * It creates checkouts with the amount the merchant's server decides, forwards
 * process requests after validating them, and confirms outcomes (return page,
 * webhook, polling) by reading the checkout from the provider itself.
 *
 * Wiring only, on Hono: the access log, the origin policy and the 405 rule wrap the route
 * modules (routes/), mounted under `basePath`; error-map.ts turns anything thrown into
 * the JSON error shape.
 */
import { type Context, Hono } from 'hono';
import { routePath } from 'hono/route';
import { errorJson, handlerErrorBody } from '../http/errors.ts';
import { methodNotAllowedJson } from '../http/methods.ts';
import { createProviderClient } from './client.ts';
import { errorResponse } from './error-map.ts';
import { createMemoryIdempotencyStore } from './idempotency.ts';
import { type HandlerConfig, type PaymentHandlerOptions, resolveOptions } from './options.ts';
import { corsForAllowed } from './origin.ts';
import { createOutcomeReporter, problemEntry } from './outcome.ts';
import { checkoutRoutes } from './routes/checkouts.ts';
import { confirmRoutes } from './routes/confirm.ts';
import type { RouteDeps } from './routes/deps.ts';
import { paymentMethodRoutes } from './routes/methods.ts';

export type { LogEntry, PaymentHandlerOptions, ResolvedCheckout } from './options.ts';

/** The route pattern below basePath, not the path: paths carry customer ids. */
function routeLabel(c: Context, config: HandlerConfig): string {
  const pattern = routePath(c, -1);
  if (!pattern.endsWith('*')) return pattern.slice(config.basePath.length) || '/';
  const path = c.req.path;
  const inside = path === config.basePath || path.startsWith(`${config.basePath}/`);
  return inside ? '(no such route)' : '(outside basePath)';
}

export function createPaymentHandler(
  options: PaymentHandlerOptions,
): (request: Request) => Promise<Response> {
  const config = resolveOptions(options);
  const client = createProviderClient({
    baseUrl: options.baseUrl,
    apiKey: options.apiKey,
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...(options.retries === undefined ? {} : { retries: options.retries }),
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
  });
  const report = createOutcomeReporter({
    merchantCode: options.merchantCode,
    store: options.idempotencyStore ?? createMemoryIdempotencyStore(),
    leaseMs: config.hookTimeoutMs,
    onPaid: options.onPaid,
    onFailed: options.onFailed,
    onProblem: (hook, checkoutId, problem) => config.log(problemEntry(hook, checkoutId, problem)),
  });
  const deps: RouteDeps = { config, client, report };

  const app = new Hono();
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

  return (request) => Promise.resolve(app.fetch(request));
}
