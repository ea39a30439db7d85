// The middleware around every request of the sandbox: its `X-Request-Id` (the caller's own
// when it is a short token, so a merchant's server can pass its id through and find the call
// in the log, else a new one), the access log line and the request log's record
// (state/request-log.ts), and `unrecorded` for the routes kept out of that log.
//
// On a socket the id is settled before the app runs (`adoptRequestId` in index.ts) and set on
// Node's response (`setHeader`), which writes it with whatever the app answers. Measured with
// `npm run bench -- throughput` against the sandbox before request ids: adding the header to
// the answer the app built made the HTTP adapter build a full Headers object per response,
// and a ServerResponse subclass that added it in `writeHead` cost a sixth of the throughput;
// setHeader costs a few per cent.

import type { Context, MiddlewareHandler } from 'hono';
import { headerOf, madeBody } from '../../http/json.ts';
import { requestIdFrom } from '../../shared/request-id.ts';
import type { SandboxEnv } from '../context.ts';
import { maskedRequestBody, maskedText } from '../state/body-mask.ts';
import type { RecordedBodies } from '../state/request-log.ts';

/** The path as the client sent it (still %-encoded): what the log and faults match on. */
export function rawPath(url: string): string {
  const start = url.indexOf('/', url.indexOf('//') + 2);
  if (start < 0) return '/';
  const end = url.search(/[?#]/);
  return url.slice(start, end < 0 ? undefined : end);
}

/** Adds `X-Request-Id`; an answer with read-only headers (a redirect) is copied first. */
function setRequestId(c: Context<SandboxEnv>, requestId: string): void {
  try {
    c.res.headers.set('x-request-id', requestId);
  } catch {
    const res = c.res;
    const headers = new Headers(res.headers);
    headers.set('x-request-id', requestId);
    c.res = new Response(res.body, { status: res.status, statusText: res.statusText, headers });
  }
}

/**
 * The request's and the answer's JSON bodies, masked: the request's as its route read it, the
 * answer's as json() made it (else read from a copy, when it says it is JSON).
 */
async function bodiesOf(c: Context<SandboxEnv>): Promise<RecordedBodies> {
  const request = maskedRequestBody(c.req.raw);
  const res = c.res;
  let text = madeBody(res);
  if (text === undefined) {
    const type = headerOf(res, 'content-type') ?? '';
    text = /^application\/(?:[\w.+-]+\+)?json/i.test(type)
      ? await res
          .clone()
          .text()
          .catch(() => '')
      : '';
  }
  return { request, response: maskedText(text ?? '') };
}

/**
 * Around every request: its `X-Request-Id` on the answer (unless the socket set it), the access
 * log line (path only: query strings and bodies stay out of it), and the request log's record
 * (with the bodies, masked).
 */
export const recordRequests: MiddlewareHandler<SandboxEnv> = async (c, next) => {
  const { sandbox, requestIdOnSocket } = c.env;
  const started = performance.now();
  const at = sandbox.clock.now();
  const method = c.req.method;
  const path = rawPath(c.req.url);
  const requestId = requestIdFrom(c.req.raw.headers.get('x-request-id'));
  await next();
  const status = c.res.status;
  if (status !== 0 && !requestIdOnSocket) setRequestId(c, requestId);
  const durationMs = performance.now() - started;
  if (sandbox.accessLog) {
    sandbox.log(
      `${method} ${path} ${status === 0 ? 'dropped' : status} ${durationMs.toFixed(1)}ms ${requestId}`,
    );
  }
  if (c.get('unrecorded')) return;
  const traceparent = c.req.header('traceparent') ?? '';
  const bodies = status === 0 ? undefined : await bodiesOf(c);
  sandbox.requests.record(at, method, path, status, durationMs, requestId, traceparent, bodies);
};

/**
 * Keeps a route out of the request log: the control surface's own reads, which the dashboard
 * repeats after every change, would otherwise push the requests a developer looks for out.
 */
export const unrecorded: MiddlewareHandler<SandboxEnv> = async (c, next) => {
  c.set('unrecorded', true);
  await next();
};
