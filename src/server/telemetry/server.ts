/**
 * The server span of each request and `http.server.request.duration`, per OpenTelemetry's
 * stable HTTP conventions. A Hono middleware, so that the route is known: `http.route` is the
 * pattern that answered (`/payments/checkouts/:id`), never the path, which can carry a
 * customer's id. The URL is not recorded for the same reason.
 */
import type { Attributes } from '@opentelemetry/api';
import type { Context, MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import type { HandlerEnv } from '../types.ts';
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

/** The route pattern that answered, or undefined when none did (404, a preflight). */
function routeOf(c: Context<HandlerEnv>): string | undefined {
  const pattern = routePath(c, -1);
  return pattern === '' || pattern.endsWith('*') ? undefined : pattern;
}

/**
 * What made a 5xx: the thrown error's code (`PROVIDER_TIMEOUT`, ...) or, for an answer the
 * routes built themselves (`HOOK_FAILED`), its status. Below 500 a server span is no error.
 */
function serverErrorType(c: Context<HandlerEnv>, status: number): string | undefined {
  if (status < 500) return undefined;
  return c.error === undefined ? String(status) : errorTypeOf(c.error);
}

export function serverSpans(current: () => Recorder | undefined): MiddlewareHandler<HandlerEnv> {
  return async function telemetry(c, next) {
    const recorder = current();
    if (recorder === undefined) return next();
    const { api, tracer, metrics, requestIdKey } = recorder;
    const request = c.req.raw;
    const method = conventionalMethod(request.method);
    const parent = requestParent(api, request.headers);
    const span = tracer.startSpan(method, { kind: api.SpanKind.SERVER }, parent);
    const started = performance.now();
    if (isLive(api, span)) {
      const context = api.trace.setSpan(parent, span).setValue(requestIdKey, c.get('requestId'));
      await api.context.with(context, next);
    } else if (metrics === undefined) {
      // No SDK: nothing would keep what follows.
      return next();
    } else {
      await next();
    }
    const status = c.res.status;
    const route = routeOf(c);
    const errorType = serverErrorType(c, status);
    const attributes: Attributes = {
      [ATTR.method]: method,
      [ATTR.scheme]: c.req.url.startsWith('https:') ? 'https' : 'http',
      [ATTR.status]: status,
    };
    if (route !== undefined) attributes[ATTR.route] = route;
    if (errorType !== undefined) attributes[ATTR.errorType] = errorType;
    metrics?.serverDuration.record(secondsSince(started), attributes);
    if (span.isRecording()) {
      if (route !== undefined) span.updateName(`${method} ${route}`);
      if (method === '_OTHER') span.setAttribute(ATTR.methodOriginal, request.method);
      span.setAttribute(ATTR.requestId, c.get('requestId'));
    }
    endSpan(api, span, attributes);
  };
}
