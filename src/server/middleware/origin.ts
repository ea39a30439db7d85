/**
 * Origin policy, in one place. Browsers send `Origin` on every POST and PUT, so a
 * state-changing call must come from an allowed origin; the provider's webhook comes from
 * its servers without one. Allowed origins get CORS headers and preflights (needed only
 * when the widget's page and the handler are on different origins).
 *
 * Not hono/cors: it answers a foreign preflight 204 where this handler refuses with 403,
 * and appending `Vary` after the route rebuilds every response, even without an Origin.
 */
import type { Context, MiddlewareHandler, Next } from 'hono';
import { empty, headerOf, replaceAnswer, withHeaders } from '../../http/json.ts';
import { PaymentHandlerError } from '../errors.ts';

/** The refusal names the origin it got and the option that would let it in. */
const forbidden = (origin: string | undefined) =>
  new PaymentHandlerError(
    403,
    'FORBIDDEN_ORIGIN',
    origin === undefined
      ? 'The request has no Origin header: only pages on an origin listed in the handler’s allowedOrigins may create or pay checkouts'
      : `The origin ${origin} may not call the payment handler: add it to the handler’s allowedOrigins`,
    'origin',
  );

/** Answers preflights of allowed origins (403 to others) and adds CORS headers for them. */
export function corsForAllowed(allowed: ReadonlySet<string>): MiddlewareHandler {
  return (c, next) => {
    const origin = c.req.header('origin');
    // Most requests carry no Origin (the provider's webhook, same-origin GETs): nothing to add.
    if (origin === undefined && c.req.method !== 'OPTIONS') return next();
    return withCors(c, next, origin !== undefined && allowed.has(origin) ? origin : undefined);
  };
}

async function withCors(
  c: Context,
  next: Next,
  allowedOrigin: string | undefined,
): Promise<Response | undefined> {
  if (c.req.method === 'OPTIONS') {
    if (allowedOrigin === undefined) throw forbidden(c.req.header('origin'));
    return empty(204, {
      'access-control-allow-origin': allowedOrigin,
      'access-control-allow-credentials': 'true',
      'access-control-allow-methods': 'GET, POST, PUT',
      // The widget sends X-Request-Id with every call (the answer echoes it).
      'access-control-allow-headers': 'content-type, x-request-id',
      'access-control-max-age': '600',
      vary: 'origin',
    });
  }
  await next();
  const answered = c.res;
  if (allowedOrigin === undefined || headerOf(answered, 'access-control-allow-origin') !== null) {
    return undefined;
  }
  const vary = headerOf(answered, 'vary');
  const cors: Record<string, string> = {
    'access-control-allow-origin': allowedOrigin,
    // The widget's calls carry the page's cookies (its basket): an allowed page reads the answer.
    'access-control-allow-credentials': 'true',
    vary: vary === null ? 'origin' : `${vary}, origin`,
  };
  // A page on another origin reads how long a 429 asks it to wait.
  if (headerOf(answered, 'retry-after') !== null) {
    cors['access-control-expose-headers'] = 'retry-after';
  }
  replaceAnswer(c, withHeaders(answered, cors));
  return undefined;
}

/** For a call a page makes (create, process): its Origin must be allowed; none is refused too. */
export function requireAllowedOrigin(allowed: ReadonlySet<string>): MiddlewareHandler {
  return async (c, next) => {
    const origin = c.req.header('origin');
    if (origin === undefined || !allowed.has(origin)) throw forbidden(origin);
    await next();
  };
}

/** For the provider's webhook: no Origin is fine; a browser posting from a foreign page is not. */
export function refuseForeignOrigin(allowed: ReadonlySet<string>): MiddlewareHandler {
  return async (c, next) => {
    const origin = c.req.header('origin');
    if (origin !== undefined && !allowed.has(origin)) throw forbidden(origin);
    await next();
  };
}
