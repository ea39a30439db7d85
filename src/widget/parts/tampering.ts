// The diagnostics part's verdict on a file of the widget that did not load (a part, a locale:
// ./checked-import.ts): was it refused because its bytes are not the ones built? The file is
// fetched again, plainly and then with its integrity: it answers, and fails the check. Then
// the widget stops for good and says it could not be loaded (in the page's language when its
// words came), `payment-error` says `WIDGET_INTEGRITY`, and the companion handler hears of it
// (`POST /reports`, a beacon in the Reporting API's shape) beside the browser's own CSP
// reports. Anything else (no answer) is a network failure, which the widget says as ever.
// A deploy since the page loaded looks the same (the page runs the old bundle, the server has
// the new build's files): so the first such file in a tab loads the page again instead, and
// the new build resumes the shopper's checkout (reload()).
//
// Here, not in the bundle, where every byte of the card form's first paint counts: a file
// that failed is a mistake in the page, as the rest of this part's problems are. Should this
// part fail too, its own failure is the one the widget shows (it could not reach a file).

import type { IntegrityReport } from '../../shared/integrity-report.ts';
import type { PaymentErrorDetail } from '../events.ts';
import type { Strings } from '../locales/en.ts';
import { stoppedWords } from '../locales/english/stopped.ts';
import type { CheckedFile } from './checked-import.ts';

/** Whether the file answers with bytes that fail its integrity (not: no answer at all). */
async function tampered({ url, integrity }: CheckedFile): Promise<boolean> {
  const answer = await fetch(url).catch(() => undefined);
  if (!answer?.ok) return false;
  return fetch(url, { integrity }).then(
    () => false,
    () => true,
  );
}

/**
 * Loads the page again, once per tab and file hash (kept in sessionStorage under the hash
 * itself, `sha256-...`; no reload where storage is off): whether it did. After a deploy, the
 * page then runs the build the server has; a file that still fails its check is not the one
 * built, and the widget stops.
 */
function reload({ integrity }: CheckedFile): boolean {
  try {
    if (sessionStorage[integrity]) return false;
    sessionStorage[integrity] = 1;
    location.reload();
    return true;
  } catch {
    return false;
  }
}

/**
 * Judges a file that did not load, for the widget `host` (whose `endpoint` hears of it);
 * `stop` stops that widget with the words it now shows, and says whether it was still
 * running (a second file that failed is not reported again). Settles once judged: stopped,
 * or not its bytes (no answer, which the widget says as ever); never when the page reloads.
 */
export async function judge(
  file: CheckedFile,
  host: HTMLElement & { endpoint: string },
  stop: (words: Partial<Strings>) => boolean,
): Promise<void> {
  if (!(await tampered(file))) return;
  // The page loads again: this one says nothing more of the file (this never settles).
  if (reload(file)) return new Promise(() => {});
  if (!stop(stoppedWords)) return;
  const message = `${file.url} is not the file this widget was built with (integrity ${file.integrity}), so it did not run it`;
  console.error(`payment-widget: ${message}`);
  // As ../events.ts emit() sends it; not taken from there, which the package's ES entry would
  // then split into a file of its own for this part and the element to share.
  const detail: PaymentErrorDetail = { code: 'WIDGET_INTEGRITY', message, retryable: false };
  host.dispatchEvent(new CustomEvent('payment-error', { detail, bubbles: true, composed: true }));
  navigator.sendBeacon(
    `${host.endpoint.replace(/\/+$/, '')}/reports`,
    JSON.stringify([
      {
        type: 'payment-widget-integrity',
        url: location.href,
        body: { blockedURL: file.url, integrity: file.integrity },
      },
    ] satisfies IntegrityReport[]),
  );
}
