/**
 * JSON and empty answers, the same for the handler, the sandbox and the demo, and headers added
 * to them after the route (withHeaders()).
 */

const JSON_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'application/json; charset=utf-8',
  // Checkout state changes under the client's feet; a cached answer would lie.
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
};

/** What json() and empty() made an answer of: its headers as a plain object, names in lower case. */
interface Parts {
  body: string | null;
  status: number;
  headers: Readonly<Record<string, string>> | undefined;
}

/**
 * Where an answer json() or empty() made keeps its parts: a property of its own. A WeakMap
 * entry cost every answer a write into an ephemeron table that each garbage collection then
 * had to walk (BENCHMARKS.md, the throughput section).
 */
const PARTS = Symbol('payment-widget.parts');
type Made = Response & { [PARTS]?: Parts };

const partsOf = (response: Response): Parts | undefined => (response as Made)[PARTS];

// The runtime's own Response, as it was when this module loaded: a Node server on
// @hono/node-server (toNodeListener) later puts a lighter one in its place.
const NativeResponse = globalThis.Response;

function answer(parts: Parts): Response {
  const { body, status, headers } = parts;
  const response = new Response(body, headers === undefined ? { status } : { status, headers });
  // Only the lighter answers are made again for a header (withHeaders()): the runtime's own
  // builds its Headers as it is made, and setting one there costs less than a second answer.
  if (Object.getPrototypeOf(response) !== NativeResponse.prototype)
    (response as Made)[PARTS] = parts;
  return response;
}

/** `{ ...a, ...b }` as a loop: the spread takes microseconds here once `b`'s keys are new. */
function merged(
  a: Readonly<Record<string, string>> | undefined,
  b: Readonly<Record<string, string>>,
): Record<string, string> {
  const all: Record<string, string> = {};
  for (const name in a) all[name] = a[name] as string;
  for (const name in b) all[name] = b[name] as string;
  return all;
}

/** `body` as JSON with `status` (default 200); `headers` add to or override the defaults. */
export function json(body: unknown, status = 200, headers?: Record<string, string>): Response {
  return answer({
    body: JSON.stringify(body),
    status,
    headers: headers === undefined ? JSON_HEADERS : merged(JSON_HEADERS, headers),
  });
}

/**
 * An answer without a body. Anything but a 204 or 304 says `Content-Length: 0`: without it
 * Node sends an empty chunked body, and a client cannot tell "empty" from "still coming"
 * (the provider's own SDK refuses such an answer as not JSON).
 */
export function empty(status: number, headers?: Record<string, string>): Response {
  const withLength =
    status === 204 || status === 304 ? headers : merged({ 'content-length': '0' }, headers ?? {});
  return answer({ body: null, status, headers: withLength });
}

/** The body json() or empty() made `response` with (null: none); undefined when it made another. */
export function madeBody(response: Response): string | null | undefined {
  const parts = partsOf(response);
  return parts === undefined ? undefined : parts.body;
}

/** Header `name` (lower case) of `response`, or null; read without touching its Headers when it can. */
export function headerOf(response: Response, name: string): string | null {
  const parts = partsOf(response);
  return parts === undefined ? response.headers.get(name) : (parts.headers?.[name] ?? null);
}

/**
 * `response` with `headers` (names in lower case) set: a light answer json() or empty() made is
 * made again with them, else they are set on its Headers. On Node, touching a light answer's
 * `headers` makes @hono/node-server build a Headers object and copy it out again when it writes
 * the answer, which costs a handler's GET microseconds; one made again keeps a plain object.
 * Every header added after the route goes through here, so that what json() made an answer of
 * stays what it holds. Assign the result with `replaceAnswer()`.
 */
export function withHeaders(
  response: Response,
  headers: Readonly<Record<string, string>>,
): Response {
  const parts = partsOf(response);
  if (parts === undefined) {
    for (const name in headers) response.headers.set(name, headers[name] as string);
    return response;
  }
  return answer({ ...parts, headers: merged(parts.headers, headers) });
}

/**
 * Makes `answer` the request's answer in Hono's context, in place of the one there: cleared
 * first, else Hono copies the old answer's headers into the new one (building both Headers).
 */
export function replaceAnswer(c: { res: Response | undefined }, answer: Response): void {
  if (c.res === answer) return;
  c.res = undefined;
  c.res = answer;
}
