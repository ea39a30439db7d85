/**
 * `X-Request-Id`: the one id that ties a shopper's request to what the handler and the
 * provider (or the sandbox) did for it. A server keeps the incoming id when it is a short
 * token (the widget sends one per call; a proxy may have set one), so every log line on the
 * way names the same id; anything else (absent, long, or with characters that could forge a
 * log line) is replaced by a new one.
 */
const TOKEN = /^[A-Za-z0-9._:-]{1,64}$/;

export const REQUEST_ID_HEADER = 'x-request-id';

/** The incoming id when it is a short token, else a new random one. */
export function requestIdFrom(incoming: string | null | undefined): string {
  return incoming != null && TOKEN.test(incoming) ? incoming : crypto.randomUUID();
}
