// pageSecurityHeaders(): the headers of a payment page. A Content-Security-Policy that lets
// the widget run and pay (its script by nonce, what it adds by 'strict-dynamic', 3-D Secure
// and bank pages in a frame or a form post) and nothing it does not need, Trusted Types
// enforced, and violations reported to the handler's `POST /reports` in both of the browsers'
// ways (`report-uri`, and `report-to` with `Reporting-Endpoints`).
import { type CspSources, checkedNonce, checkedSources, cspHeader, mergeSources } from './csp.ts';

export interface PageSecurityOptions {
  /**
   * The nonce of this response (new for each: `crypto.randomBytes(16).toString('base64')`),
   * also on the widget's tag (`widgetTags({ nonce })`) and on the page's own inline scripts.
   * Without one, scripts are allowed by origin (`'self'` and `extra`), which lets any script
   * on those origins run.
   */
  nonce?: string;
  /**
   * Where the handler's `POST /reports` is, as the browser reaches it: a path, or a URL.
   * Default `/payments/reports`. Browsers take `report-to`'s endpoint only from an https page,
   * and Chrome then ignores `report-uri`: for a page served over plain http (a demo on
   * loopback) give the full `http://` URL, and the policy names it in `report-uri` alone.
   */
  reportPath?: string;
  /**
   * Sources to add, by directive: `widgetTags().csp`, and the page's own (an image CDN in
   * `img-src`, a loopback provider sandbox in `frame-src` and `form-action`).
   */
  extra?: CspSources;
}

/** The reporting group the policy names in `report-to`, defined in `Reporting-Endpoints`. */
export const REPORT_GROUP = 'payment-widget';

/** Where the handler answers reports, mounted at its default `basePath`. */
const DEFAULT_REPORT_PATH = '/payments/reports';

/** A path (`/payments/reports`) or an http(s) URL, nothing that could break out of a header. */
function checkedReportPath(value: unknown): string {
  if (value === undefined) return DEFAULT_REPORT_PATH;
  const ok =
    typeof value === 'string' &&
    /^(?:https?:\/\/[^\s"',;]+|\/[^\s"',;]*)$/.test(value) &&
    !/\p{Cc}/u.test(value);
  if (!ok) {
    throw new TypeError(
      `pageSecurityHeaders: reportPath must be the path of the handler's /reports (/payments/reports) or its URL, not ${JSON.stringify(value)}`,
    );
  }
  return value;
}

/**
 * The policy's own directives. 3-D Secure challenges come from each card issuer's server,
 * whose origins nobody lists in advance: they are framed (`frame-src https:`) and posted to
 * (`form-action https:`) over https only; a bank's page is a navigation, which no directive
 * restricts. A challenge framed in the widget for a checkout with a `redirect_url` ends on
 * the handler's `/return`, on the page's own origin: `'self'` frames it when that is not https
 * (a shop on loopback). Lit writes the widget's styles as <style> elements where constructable
 * stylesheets are missing (Safari before 16.4): the nonce admits them.
 */
function directives(nonce: string | undefined): CspSources {
  const byNonce = nonce === undefined ? [] : [`'nonce-${nonce}'`];
  return {
    'default-src': ["'self'"],
    // 'self' only where 'strict-dynamic' is not understood (Safari before 15.4): browsers that
    // understand it ignore every origin in favour of the nonce.
    'script-src': nonce === undefined ? ["'self'"] : [...byNonce, "'strict-dynamic'", "'self'"],
    'style-src': ["'self'", ...byNonce],
    'frame-src': ["'self'", 'https:'],
    'form-action': ["'self'", 'https:'],
    'base-uri': ["'none'"],
    'object-src': ["'none'"],
    'frame-ancestors': ["'self'"],
    'require-trusted-types-for': ["'script'"],
    // Lit renders through its policy; the widget sets its files' script URLs through its own.
    'trusted-types': ['lit-html', 'payment-widget'],
  };
}

/**
 * The headers to send with a payment page: `Content-Security-Policy` (reporting to the
 * handler) and `Reporting-Endpoints` (for an https page). Set them on the page's response
 * only, not on the handler's JSON or the widget's files.
 */
export function pageSecurityHeaders(options: PageSecurityOptions = {}): Record<string, string> {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError('pageSecurityHeaders: pass { nonce?, reportPath?, extra? }');
  }
  const nonce = checkedNonce('pageSecurityHeaders: nonce', options.nonce);
  const reportPath = checkedReportPath(options.reportPath);
  const extra = checkedSources('pageSecurityHeaders: extra', options.extra);
  const own = directives(nonce);
  // A fetch directive the policy does not name falls back to default-src: `extra` adds to
  // what it allowed, never takes 'self' away from it.
  const inherited: Record<string, readonly string[]> = {};
  for (const directive of Object.keys(extra)) {
    if (!(directive in own) && directive.endsWith('-src'))
      inherited[directive] = own['default-src'] ?? [];
  }
  const reportTo = !reportPath.startsWith('http:');
  const policy = mergeSources(own, inherited, extra, {
    'report-uri': [reportPath],
    ...(reportTo ? { 'report-to': [REPORT_GROUP] } : {}),
  });
  const csp = { 'Content-Security-Policy': cspHeader(policy) };
  return reportTo ? { ...csp, 'Reporting-Endpoints': `${REPORT_GROUP}="${reportPath}"` } : csp;
}
