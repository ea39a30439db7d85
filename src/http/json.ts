/**
 * JSON and empty answers, the same for the handler, the sandbox and the demo.
 */

const JSON_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'application/json; charset=utf-8',
  // Checkout state changes under the client's feet; a cached answer would lie.
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
};

/** `body` as JSON with `status` (default 200); `headers` add to or override the defaults. */
export function json(body: unknown, status = 200, headers?: Record<string, string>): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: headers === undefined ? JSON_HEADERS : { ...JSON_HEADERS, ...headers },
  });
}

/**
 * An answer without a body. Anything but a 204 or 304 says `Content-Length: 0`: without it
 * Node sends an empty chunked body, and a client cannot tell "empty" from "still coming"
 * (the provider's own SDK refuses such an answer as not JSON).
 */
export function empty(status: number, headers?: Record<string, string>): Response {
  const withLength =
    status === 204 || status === 304 ? headers : { 'content-length': '0', ...headers };
  return new Response(null, {
    status,
    ...(withLength === undefined ? {} : { headers: withLength }),
  });
}
