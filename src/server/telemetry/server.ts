/**
 * The server span of each request and `http.server.request.duration`, per OpenTelemetry's
 * stable HTTP conventions. Inside Hono's chain, so that the route is known: `http.route` is the
 * pattern that answered (`/payments/checkouts/:id`), never the path, which can carry a
 * customer's id. The URL is not recorded for the same reason.
 */
import type { Attributes, Span } from '@opentelemetry/api';
import type { Context, Next } from 'hono';
import { routePath } from 'hono/route';
import { providerErrorCode } from '../errors.ts';
import { ProviderError } from '../provider/errors.ts';
import type { HandlerEnv } from '../types.ts';
import type { Api } from './load.ts';
import { ATTR } from './names.ts';
import { requestParent } from './propagation.ts';
import { endSpan, errorTypeOf, isLive, type Recorder, secondsSince } from './recorder.ts';

const KNOWN_METHODS = new Set([
  'CONNECT',
  'DELETE',
  'GET',
  'HEAD',
  'OPTIONS',
  'PATCH',
  'POST',
  'PUT',
  'TRACE',
]);

/** The conventions' method: a known one as is, anything else `_OTHER` (a client can send any). */
export function conventionalMethod(method: string): string {
  return KNOWN_METHODS.has(method) ? method : '_OTHER';
}

/** A span name's method: the conventions name a request of an unknown method `HTTP`. */
const spanMethod = (method: string) => (method === '_OTHER' ? 'HTTP' : method);

/** The route pattern that answered, or undefined when none did (404, a preflight). */
function routeOf(c: Context<HandlerEnv>): string | undefined {
  const pattern = routePath(c, -1);
  return pattern === '' || pattern.endsWith('*') ? undefined : pattern;
}

/**
 * What made a 5xx: the thrown error's code (`PROVIDER_TIMEOUT`, ...), a provider's as the
 * handler answered it (its own may be any string), or, for an answer the routes built
 * themselves (`HOOK_FAILED`), its status. Below 500 a server span is no error.
 */
function serverErrorType(c: Context<HandlerEnv>, status: number): string | undefined {
  if (status < 500) return undefined;
  if (c.error instanceof ProviderError) return providerErrorCode(c.error);
  return c.error === undefined ? String(status) : errorTypeOf(c.error);
}

/**
 * Runs `next` (the rest of the request) inside the request's server span. Called by the
 * handler's first middleware rather than being one: without an SDK a request passes through at
 * the cost of two checks, not of one more step in Hono's chain.
 */
export function serverSpans(
  current: () => Recorder | undefined,
): (c: Context<HandlerEnv>, next: Next) => Promise<void> {
  return function telemetry(c, next) {
    const recorder = current();
    if (recorder === undefined || (recorder.metrics === undefined && !recorder.tracing())) {
      return next();
    }
    return traced(c, next, recorder);
  };
}

/**
 * The host's request metadata, when its HTTP instrumentation (`@opentelemetry/instrumentation-http`)
 * traced the request: the object `@opentelemetry/core` keeps under `hostKey` in the context,
 * whose `route` (a framework's instrumentation writes it) names the host's server span and
 * labels its duration metric. Undefined without that instrumentation.
 */
function hostRequest(api: Api, key: symbol): { route?: string } | undefined {
  const host = api.context.active().getValue(key) as { type?: unknown; route?: string } | null;
  return typeof host === 'object' && host?.type === 'http' ? host : undefined;
}

async function traced(c: Context<HandlerEnv>, next: Next, recorder: Recorder): Promise<void> {
  const { api, tracer, requestIdKey } = recorder;
  const host = hostRequest(api, recorder.hostKey);
  const request = c.req.raw;
  const method = conventionalMethod(request.method);
  const { parent, links } = requestParent(api, request.headers);
  const span = tracer.startSpan(spanMethod(method), { kind: api.SpanKind.SERVER, links }, parent);
  const started = performance.now();
  let thrown: { error: unknown } | undefined;
  try {
    if (isLive(api, span)) {
      const context = api.trace.setSpan(parent, span).setValue(requestIdKey, c.get('requestId'));
      await api.context.with(context, next);
    } else {
      await next();
    }
  } catch (error) {
    // Hono answers what a route throws; only its error handler's own failure gets here.
    thrown = { error };
    throw error;
  } finally {
    const route = finish(c, recorder, span, method, started, thrown);
    // The pattern, `basePath` included: the path the host saw when the handler sees it whole.
    if (host !== undefined && route !== undefined) host.route = route;
  }
}

function finish(
  c: Context<HandlerEnv>,
  { api, metrics }: Recorder,
  span: Span,
  method: string,
  started: number,
  thrown: { error: unknown } | undefined,
): string | undefined {
  const status = thrown === undefined ? c.res.status : 500;
  const route = routeOf(c);
  const errorType = thrown === undefined ? serverErrorType(c, status) : errorTypeOf(thrown.error);
  // Literal keys, not ATTR's: this object is made on every request.
  const attributes: Attributes = {
    'http.request.method': method,
    'url.scheme': c.req.url.startsWith('https:') ? 'https' : 'http',
    'http.response.status_code': status,
  };
  if (route !== undefined) attributes['http.route'] = route;
  if (errorType !== undefined) attributes['error.type'] = errorType;
  metrics?.serverDuration.record(secondsSince(started), attributes);
  if (span.isRecording()) {
    if (route !== undefined) span.updateName(`${spanMethod(method)} ${route}`);
    if (method === '_OTHER') span.setAttribute(ATTR.methodOriginal, c.req.raw.method);
    span.setAttribute(ATTR.requestId, c.get('requestId'));
    // The checkout the request named or made, on the span only: a metric would get one series
    // per checkout. It ties a payment's requests (create, pay, polls, return, webhook) together.
    const checkoutId: string | undefined = c.get('checkoutId');
    if (checkoutId !== undefined) span.setAttribute(ATTR.checkoutId, checkoutId);
  }
  endSpan(api, span, attributes);
  return route;
}
