/**
 * `GET /return` inside an iframe. A 3DS challenge the widget shows in an iframe ends at the
 * checkout's `redirect_url` when the checkout has one (`challenge="iframe"` on a checkout
 * made for full-page flows): the shop's result page would then load inside the widget's
 * frame. So when the browser says the request is for a frame (`Sec-Fetch-Dest: iframe`),
 * the handler answers a small page of its own instead of redirecting, and the widget, which
 * reads the checkout back while the challenge shows, shows the outcome.
 *
 * The page sandboxes itself (CSP `sandbox`, no `allow-same-origin`): its origin is opaque,
 * so in the widget's frame, whose flags let an issuer's page keep its own origin and run
 * scripts, it is not a document of the shop's origin that could lift that sandbox (which
 * browsers warn of in the console). It runs nothing: the widget trusts no message from it.
 */

/** Whether the browser asked for this answer to fill a frame. */
export const forFrame = (request: Request): boolean =>
  request.headers.get('sec-fetch-dest') === 'iframe';

/** The end page: a line for the shopper, framed by the allowed origins only. */
export function returnFramePage(allowedOrigins: ReadonlySet<string>): Response {
  const body = `<!doctype html><html lang="en"><meta charset="utf-8"><title>Authentication finished</title>
<p style="font:1rem system-ui,sans-serif">Authentication finished.</p></html>`;
  return new Response(body, {
    status: 200,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      'content-security-policy': `sandbox; default-src 'none'; style-src 'unsafe-inline'; frame-ancestors ${[...allowedOrigins].join(' ')}`,
      'referrer-policy': 'no-referrer',
    },
  });
}
