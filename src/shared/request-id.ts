/**
 * `X-Request-Id`: the one id that ties a shopper's request to what the handler and the
 * provider (or the sandbox) did for it. A server keeps the incoming id when it is a short
 * token (the widget sends one per call; a proxy may have set one), so every log line on the
 * way names the same id; anything else (absent, long, or with characters that could forge a
 * log line) is replaced by a new one. The handler and the sandbox both follow this rule; the
 * widget makes its ids with `newRequestId`. No imports: the browser bundle takes it as it is.
 */

/** What a caller may choose as its request id: short, and safe in a log line and a header. */
export const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:-]{1,64}$/;

export const REQUEST_ID_HEADER = 'x-request-id';

// A random prefix per process and a counter: unique without entropy per request, which costs
// microseconds a request on the sandbox's fast path. Made on first use: a Worker may not
// draw random values outside a request.
let prefix: string | undefined;
let counter = 0;

/** A new id: this process's (or page's) random prefix and a counter, e.g. `1bx3k9q0ff2a-1k`. */
export function newRequestId(): string {
  prefix ??= Array.from(crypto.getRandomValues(new Uint32Array(2)), (n) => n.toString(36)).join('');
  return `${prefix}-${(++counter).toString(36)}`;
}

/** The incoming id when it is a short token, else a new one. */
export function requestIdFrom(incoming: string | null | undefined): string {
  return incoming != null && REQUEST_ID_PATTERN.test(incoming) ? incoming : newRequestId();
}
