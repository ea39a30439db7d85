/**
 * What makes each of the shop's payment pages one docs/pci.md teaches: a new nonce per
 * response, the widget's tag from `widgetTags()` (its `integrity`, `crossorigin` and that
 * nonce) and the headers from `pageSecurityHeaders()` (a nonce-based policy with Trusted Types,
 * reporting to the handler's `POST /reports`). The page's own scripts carry the same nonce.
 * Nothing here needs Node: the static site's Service Worker sends the same pages.
 */
import { pageSecurityHeaders, widgetTags } from 'payment-widget/server';

export interface PageSecurity {
  /** This response's nonce, for the page's own <script> tags. */
  nonce: string;
  /** The widget's <script>, as widgetTags() writes it. */
  widget: string;
  /** The page's Content-Security-Policy (and Reporting-Endpoints over https). */
  headers: Record<string, string>;
}

/** 16 random bytes as base64: what a CSP nonce needs, from Web Crypto (Node and the worker). */
function newNonce(): string {
  return btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(16))));
}

/**
 * The security of the page at `page` (its URL as the browser asked for it). The widget's files
 * are at `assets/` and the handler at `payments/`, both relative to the page, so the shop works
 * under a path prefix. `providerOrigin` serves the 3-D Secure pages, framed and posted to: the
 * policy allows only https for those, and the sandbox is plain http on loopback.
 */
export function pageSecurity(page: URL, providerOrigin: string, module = false): PageSecurity {
  const nonce = newNonce();
  const tags = widgetTags({ assetsUrl: 'assets/', nonce, module });
  const headers = pageSecurityHeaders({
    nonce,
    // A full URL: over plain http (loopback) the policy then names it in report-uri alone,
    // which every browser sends; over https in report-to as well.
    reportPath: new URL('payments/reports', page).href,
    extra: { ...tags.csp, 'frame-src': [providerOrigin], 'form-action': [providerOrigin] },
  });
  return { nonce, widget: tags.html, headers };
}
