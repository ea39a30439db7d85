// The page's guard of the widget's first file, which widgetTags() writes before its tag. No
// browser reports a script that fails its `integrity`, and a file that never ran cannot speak
// for itself: without this, the <payment-widget> elements stay empty boxes and nobody hears.
// It does for that file what src/widget/parts/tampering.ts does for the files after it:
// - the file answers, and fails its integrity: the first time in this tab, the page loads once
//   more (a page cached from before a deploy names the old hash of a file of the same name);
//   the second time, each <payment-widget> says "The payment form could not be loaded", the
//   page hears `payment-error` WIDGET_INTEGRITY on each, and the handler's POST /reports hears
//   it once, in the widget's report shape, at the first element's `endpoint`;
// - no answer (offline, a 404): not tampering. Each element says the same words, and the page
//   hears NETWORK_ERROR, retryable (loading the page again may work); nothing is reported.
// The words are English (the page's language is unknown here, and the file with the others
// never ran; the widget's own, src/shared/stopped-words.ts), marked `lang="en"` so a screen reader reads them as English on any page.
//
// Page markup, not widget code: plain JavaScript for every browser the widget supports, run
// under pageSecurityHeaders()' policy by its hash (widgetTags().csp) or the nonce, with Trusted
// Types enforced (text and attributes only, no HTML). Its text never changes per page, so a
// baseline of `check-page` records it once.
import { INTEGRITY_REPORT } from '../../shared/integrity-report.ts';
import { stoppedWords } from '../../shared/stopped-words.ts';
import { BUNDLES } from './manifest.ts';

/** `payment-widget.iife.js` or `payment-widget.js` at the end of a script's URL. */
const ENTRY = `\\/(${Object.values(BUNDLES).join('|').replace(/\./g, '\\.')})$`;

/** The guard's JavaScript, the text of an inline <script>. */
export const ENTRY_GUARD = `// payment-widget: says so when the widget's file fails (widgetTags(), docs/pci.md).
addEventListener('error', (e) => {
  const src = e.target.src, integrity = e.target.integrity;
  if (!/${ENTRY}/.test(src)) return;
  fetch(src).then((a) => a.ok && fetch(src, { integrity }).then(() => 0, () => 1), () => 0)
    .then((tampered) => {
      try {
        if (tampered && !sessionStorage[integrity]) {
          sessionStorage[integrity] = 1;
          return location.reload();
        }
      } catch {}
      const code = tampered ? 'WIDGET_INTEGRITY' : 'NETWORK_ERROR';
      const message = src + (tampered ? ' is not the file this widget was built with (integrity ' + integrity + '), so it did not run it' : ' did not load');
      const stop = () => {
        const widgets = document.querySelectorAll('payment-widget');
        for (const w of widgets) {
          const p = document.createElement('p');
          p.setAttribute('role', 'alert');
          p.lang = 'en';
          p.textContent = ${JSON.stringify(stoppedWords.errNotLoaded)};
          w.append(p);
          w.dispatchEvent(new CustomEvent('payment-error', { detail: { code, message, retryable: !tampered }, bubbles: true, composed: true }));
        }
        if (!tampered) return;
        console.error('payment-widget: ' + message);
        const w = widgets[0], endpoint = (w && (w.endpoint || w.getAttribute('endpoint'))) || '/payments';
        navigator.sendBeacon(endpoint.replace(/\\/+$/, '') + '/reports', JSON.stringify([
          { type: ${JSON.stringify(INTEGRITY_REPORT)}, url: location.href, body: { blockedURL: src, integrity } },
        ]));
      };
      if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', stop);
      else stop();
    });
}, true);`;

/**
 * ENTRY_GUARD's `sha256-` as a CSP names it (widgetTags().csp). Kept here, not computed: the
 * handler runs where no synchronous hash is at hand (workers, Deno). A test checks it against
 * the text and names the new one when the text changes.
 */
export const ENTRY_GUARD_HASH = "'sha256-Ga/SCkKq1Xz/mye8IRQlLJ0/pdDDgtt6G11ZC2JLvqk='";
