/**
 * `GET /return` inside an iframe. A 3DS challenge the widget shows in an iframe ends at the
 * checkout's `redirect_url` when the checkout has one (`challenge="iframe"` on a checkout
 * made for full-page flows): the shop's result page would then load inside the widget's
 * frame. So when the browser says the request is for a frame (`Sec-Fetch-Dest: iframe`),
 * the handler answers a small page of its own that tells the widget the challenge ended,
 * instead of redirecting. The message is only a hint: the widget confirms the outcome
 * through `GET /checkouts/:id` either way.
 */
import { CHALLENGE_COMPLETE } from '../../domain/checkout.ts';

/** Whether the browser asked for this answer to fill a frame. */
export const forFrame = (request: Request): boolean =>
  request.headers.get('sec-fetch-dest') === 'iframe';

/** The end page: posts the completion to the parent, at each allowed origin only. */
export function returnFramePage(
  checkoutId: string,
  status: string | undefined,
  allowedOrigins: ReadonlySet<string>,
): Response {
  const nonce = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(16))));
  // JSON in a script: `<` escaped, so no value can close the element.
  const data = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');
  const message = data({ type: CHALLENGE_COMPLETE, checkout_id: checkoutId, status });
  const origins = data([...allowedOrigins]);
  const body = `<!doctype html><html lang="en"><meta charset="utf-8"><title>Authentication finished</title>
<p style="font:1rem system-ui,sans-serif">Authentication finished.</p>
<script nonce="${nonce}">for(const o of ${origins})parent.postMessage(${message},o)</script></html>`;
  return new Response(body, {
    status: 200,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      'content-security-policy': `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'unsafe-inline'; frame-ancestors ${[...allowedOrigins].join(' ')}`,
      'referrer-policy': 'no-referrer',
    },
  });
}
