/**
 * `GET /return` inside a frame. Two frames end here, and the browser tells them apart from a
 * full page only (`Sec-Fetch-Dest: iframe`), not from each other:
 * - the widget's own 3DS challenge frame, when the checkout has a `redirect_url`
 *   (`challenge="iframe"` on a checkout made for full-page flows): the shop's result page
 *   must not load inside the widget, which reads the checkout back while the challenge
 *   shows, and shows the outcome itself;
 * - a shop page that is itself framed (by the merchant's own page, or another site's), whose
 *   full-page 3DS or bank page ran in that frame: here the result page must come, or the
 *   shopper is left before a page that says nothing of their payment.
 * So the handler answers a small page of its own, whose one script reads its frame's name:
 * in the widget's challenge frame (CHALLENGE_FRAME) it stays, anywhere else it goes on to
 * the result page, as a full page's return is redirected.
 *
 * The page sandboxes itself (CSP `sandbox allow-scripts`, no `allow-same-origin`): its
 * origin is opaque, so in the widget's frame, whose flags let an issuer's page keep its own
 * origin and run scripts, it is not a document of the shop's origin that could lift that
 * sandbox (which browsers warn of in the console). It posts nothing: the widget trusts no
 * message from it. Any page may frame it (no `frame-ancestors`): a framed shop's frame has
 * its framer above it, and the page shows nothing and goes only where the return would.
 */
import { CHALLENGE_FRAME } from '../../domain/checkout.ts';

/** Whether the browser asked for this answer to fill a frame. */
export const forFrame = (request: Request): boolean =>
  request.headers.get('sec-fetch-dest') === 'iframe';

/** The page's one script, the same on every answer. */
const GO_ON = `if(!name.startsWith('${CHALLENGE_FRAME}'))location.replace(document.links[0].href)`;

/** GO_ON's SHA-256 (test/node/server/handler-confirmation.test.ts checks it): its CSP source. */
const GO_ON_HASH = `'sha256-YmbF5HiZA23SLvqMtF+nH64q15sVkgRMLK/J3TJ8ErA='`;

const escapeHtml = (text: string): string =>
  text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

/** The end page: a line for the shopper, and `next`, the result page a full page goes to. */
export function returnFramePage(next: string): Response {
  const body = `<!doctype html><html lang="en"><meta charset="utf-8"><title>Authentication finished</title>
<p style="font:1rem system-ui,sans-serif">Authentication finished.</p>
<a hidden href="${escapeHtml(next)}"></a><script>${GO_ON}</script></html>`;
  return new Response(body, {
    status: 200,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      'content-security-policy': `sandbox allow-scripts; default-src 'none'; style-src 'unsafe-inline'; script-src ${GO_ON_HASH}`,
      'referrer-policy': 'no-referrer',
    },
  });
}
