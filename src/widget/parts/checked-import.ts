// How the self-contained builds load a file of theirs (a part, a locale) so that it runs only
// when its bytes are the ones built, in every browser we support: as a module <script> with
// `integrity` (subresource integrity: Chrome 45, Firefox 43, Safari 11.1), whose fetch the
// browser checks before it runs anything, then `import()` of the same URL, which the
// browser answers from its module map without fetching again. A plain import() checks
// nothing, and an import map's `integrity` reaches Chrome 127, Firefox 138, Safari 18 only.
// The hashes are built into whoever loads the file (./integrity.ts, in the bundle; each
// locale's, in the languages part), so the page's one `integrity` on the bundle's own
// <script> covers every file after it.
import { besideBundle } from '../../shared/bundle-url.ts';

/** A file the widget checks before it runs it: where it is, and the hash its bytes must have. */
export interface CheckedFile {
  url: string;
  integrity: string;
}

/** What of a Trusted Types policy the widget uses (TypeScript's DOM types lack the API). */
interface ScriptUrlPolicy {
  createScriptURL(url: string): string;
}

declare global {
  interface Window {
    trustedTypes?: {
      createPolicy(name: string, rules: { createScriptURL(url: string): string }): ScriptUrlPolicy;
    };
  }
}

/**
 * How often each file failed to load. Firefox keeps a module's failure for its URL as long as
 * the page lives, and answers a <script> or import() of it again with that failure, unasked:
 * a file asked for again goes under a URL it has not seen, `parts/pay.js?retry=1`, which a
 * server answers as the file (and a page's script-src as its path).
 */
const failures: Record<string, number> = {};

/** The widget's own Trusted Types policy for script URLs: only ever given a checked file's. */
let policy: ScriptUrlPolicy | undefined;

/**
 * The ES module at `url`, run only when its bytes hash to `integrity` (none: refused). A load
 * that fails rejects with an error whose `cause` is the CheckedFile: the <script> does not say
 * why it failed (bytes not the ones built, or no answer), which the diagnostics part finds out
 * (./tampering.ts), and only when one did.
 */
export function importChecked<T>(url: string, integrity: string | undefined): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const tried = failures[url];
    const src = tried ? `${url}?retry=${tried}` : url;
    // No hash would check nothing: a file loaded without one would run whatever it holds.
    if (!integrity) throw new Error(`${url}: no integrity`);
    try {
      // A Trusted Types page (`require-trusted-types-for 'script'`) takes a script's URL only
      // from a policy its `trusted-types` names: `payment-widget`. One that does not name it
      // refuses the policy, and the URL as a string if it enforces the types. The policy makes
      // URLs of the widget's own files only, below its bundle's folder (after `..` and `%2e`
      // are resolved): a page that trusts it by name trusts it with no script from elsewhere.
      // Its refusal names only the URL: every byte of the bundle counts.
      policy ??= window.trustedTypes?.createPolicy('payment-widget', {
        createScriptURL(url) {
          const own = besideBundle('./');
          if (new URL(url, own).href.startsWith(own)) return url;
          throw new TypeError(url);
        },
      });
    } catch {}
    document.head.append(
      Object.assign(document.createElement('script'), {
        type: 'module',
        integrity,
        // A page with a nonce-based policy gave the bundle's own <script> its nonce
        // (../define.ts): 'strict-dynamic' admits what the bundle adds without it, an older
        // browser only with it.
        nonce: window.litNonce ?? '',
        onload: () => resolve(import(/* @vite-ignore */ src)),
        onerror: () => {
          failures[url] = (tried ?? 0) + 1;
          reject(new Error(url, { cause: { url, integrity } }));
        },
        src: policy ? policy.createScriptURL(src) : src,
      }),
    );
  });
}
