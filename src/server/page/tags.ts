// widgetTags(): the markup that loads the widget in a payment page, with the integrity of the
// file it names, and the CSP sources that loading needs. The page's one `integrity` covers
// every file after it: the widget checks each part and locale it loads against a hash built
// into the file that loads it (src/widget/parts/checked-import.ts), in every browser. The tag
// comes after a guard of its own (./entry-guard.ts): the shopper is told, and the handler hears,
// when that first file fails its integrity.
import { builtManifest } from './built.ts';
import { type CspSources, checkedNonce } from './csp.ts';
import { ENTRY_GUARD, ENTRY_GUARD_HASH } from './entry-guard.ts';
import { BUNDLES } from './manifest.ts';

export interface WidgetTagsOptions {
  /**
   * Where the package's `dist/` folder is served, as the page's browser reaches it: a path
   * (`/assets/`), a URL relative to the page (`assets/`) or an absolute URL
   * (`https://cdn.example/payment-widget/0.1.0/`).
   */
  assetsUrl: string;
  /** The page's CSP nonce, the one its `pageSecurityHeaders({ nonce })` got: new per response. */
  nonce?: string;
  /** The ES module build (`<script type="module">`) rather than the script tag's (default). */
  module?: boolean;
}

export interface WidgetTags {
  /**
   * The <script> to put in the page: its `src`, `integrity`, `crossorigin` and `nonce`, after
   * an inline <script> (with the nonce) that says so in the page when that file fails.
   */
  html: string;
  /** The bundle's URL, as in `html`. */
  src: string;
  /** The bundle's `sha384-...`, as in `html`. */
  integrity: string;
  /**
   * What the page's Content-Security-Policy must allow for it, beyond what
   * `pageSecurityHeaders()` allows by itself: `pageSecurityHeaders({ nonce, extra: tags.csp })`.
   * The files' origin for scripts (browsers without `'strict-dynamic'`) and for the widget's
   * second look at a file that failed its check (`connect-src`), and the inline script's hash
   * (which a page without a nonce needs).
   */
  csp: CspSources;
}

const escapeAttribute = (value: string): string =>
  value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** `assetsUrl` checked and ending in `/`; its origin when it names one. */
function assetsBase(assetsUrl: unknown): { base: string; origin: string | undefined } {
  const fail = (why: string) =>
    new TypeError(
      `widgetTags: assetsUrl ${why} (where dist/ is served: "/assets/"), not ${JSON.stringify(assetsUrl)}`,
    );
  if (typeof assetsUrl !== 'string' || assetsUrl.trim() === '')
    throw fail('must be a URL or a path');
  let url: URL;
  try {
    url = new URL(assetsUrl, 'https://page.invalid/');
  } catch {
    throw fail('is not a URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw fail('must be http(s)');
  if (url.username || url.password) throw fail('must not hold credentials');
  if (url.search || url.hash) throw fail('must be a folder, without ? or #');
  const base = assetsUrl.endsWith('/') ? assetsUrl : `${assetsUrl}/`;
  const absolute = /^[a-z][a-z\d+.-]*:/i.test(assetsUrl) || assetsUrl.startsWith('//');
  return { base, origin: absolute ? url.origin : undefined };
}

/**
 * The tag that loads the widget (the script-tag build, or the ES module with `module: true`)
 * from `assetsUrl`, with the integrity of the file this package was built with, `crossorigin`
 * (which a file from another origin needs for its integrity to be checked) and the nonce; and
 * the CSP sources it needs. Serve `node_modules/payment-widget/dist/` at `assetsUrl` from the
 * same version of the package.
 */
export function widgetTags(options: WidgetTagsOptions): WidgetTags {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError('widgetTags: pass { assetsUrl, nonce?, module? }');
  }
  const { base, origin } = assetsBase(options.assetsUrl);
  const nonce = checkedNonce('widgetTags: nonce', options.nonce);
  const path = options.module === true ? BUNDLES.module : BUNDLES.script;
  const file = builtManifest().files.find((f) => f.path === path);
  if (!file) throw new Error(`payment-widget: dist/integrity.json does not list ${path}`);
  const src = base + path;
  const attributes = [
    options.module === true ? 'type="module"' : '',
    `src="${escapeAttribute(src)}"`,
    `integrity="${file.integrity}"`,
    'crossorigin="anonymous"',
    nonce === undefined ? '' : `nonce="${nonce}"`,
  ].filter(Boolean);
  const from = origin ?? "'self'";
  const guard = nonce === undefined ? '<script>' : `<script nonce="${nonce}">`;
  return {
    html: `${guard}${ENTRY_GUARD}</script><script ${attributes.join(' ')}></script>`,
    src,
    integrity: file.integrity,
    csp: { 'script-src': [from, ENTRY_GUARD_HASH], 'connect-src': [from] },
  };
}
