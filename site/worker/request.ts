// A request as the handler and the sandbox would have received it over the network. A page's
// request reaches a Service Worker before the browser adds the headers it sets itself
// (`Origin`, `Sec-Fetch-Dest`), and a Request's own headers refuse those names: the copy made
// here carries them in a Headers of its own, which is what the apps read.

/** `request` at `url` whose apps read `headers` (the body read once, so it can be sent on). */
export async function rebuild(
  request: Request,
  url: string | URL,
  headers: Headers,
): Promise<Request> {
  const body =
    request.method === 'GET' || request.method === 'HEAD' ? undefined : await request.arrayBuffer();
  // `headers` in the init too: the body's readers (formData) go by the request's own content type.
  const copy = new Request(url, { method: request.method, headers, body, redirect: 'manual' });
  Object.defineProperty(copy, 'headers', { value: headers });
  return copy;
}

/**
 * `request`, as a page of `origin` sent it, with the headers its browser would add on the
 * network: its Origin (every request a worker sees comes from its own pages, but a navigation,
 * which may come from anywhere: its referrer says from where) and what it loads into.
 */
export function fromBrowser(request: Request, origin: string): Promise<Request> {
  const headers = new Headers(request.headers);
  if (!headers.has('origin')) {
    const from =
      request.mode !== 'navigate'
        ? origin
        : request.referrer.startsWith('http')
          ? new URL(request.referrer).origin
          : undefined;
    // A GET navigation sends no Origin; a POST one from nowhere is 'null'.
    if (from !== undefined && !(request.mode === 'navigate' && request.method === 'GET')) {
      headers.set('origin', from);
    }
  }
  if (!headers.has('sec-fetch-dest')) headers.set('sec-fetch-dest', request.destination || 'empty');
  return rebuild(request, request.url, headers);
}
