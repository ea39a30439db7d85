// ./imports.ts for the self-contained builds (the script tag's, and dist/payment-widget.js),
// which vite.config.ts builds with this file in its place: each part is a file built
// beside the bundle (`parts/pay.js`), loaded from the bundle's own URL, and run only when its
// bytes are the ones built (./checked-import.ts), against a hash held by whoever loads it:
// the bundle the pay and languages parts' (./integrity.ts), the pay part the others'; the
// languages part finds and checks each locale's file, `locales/de-CH.js`, the same way.
// The parts were built without Lit (vite.parts.config.ts): the bundle lends them its own,
// here, as it runs.
import { besideBundle } from '../../shared/bundle-url.ts';
import type { CheckedFile } from './checked-import.ts';
import { PART_INTEGRITY } from './integrity.ts';
import type * as Kit from './kit.ts';
import {
  BackendError,
  call,
  checkoutAt,
  checkoutPath,
  css,
  emit,
  format,
  formatMoney,
  getCheckout,
  html,
  importChecked,
  isFinalStatus,
  isPaymentMethodId,
  isRecord,
  METHOD_IDS,
  nextFrame,
  nothing,
  svg,
  TIMEOUT_MS,
} from './kit.ts';
import { KIT } from './lend.ts';
import type { Failing, PartModules, PartName } from './types.ts';

// A plain object, not `import * as`: a module namespace in the bundle costs a helper that
// defines a getter per name (80 B gzip). The type makes a name added to ./kit.ts an error
// here until it is lent too.
const kit: typeof Kit = {
  BackendError,
  call,
  checkoutAt,
  checkoutPath,
  css,
  emit,
  format,
  formatMoney,
  getCheckout,
  html,
  importChecked,
  isFinalStatus,
  isPaymentMethodId,
  isRecord,
  METHOD_IDS,
  nextFrame,
  nothing,
  svg,
  TIMEOUT_MS,
};

const lent = globalThis as unknown as Record<symbol, typeof Kit | undefined>;
lent[KIT] ??= kit;

export function importPart<N extends PartName>(name: N): Promise<PartModules[N]> {
  const url = besideBundle(`./parts/${name}.js`);
  return importChecked<PartModules[N]>(url, PART_INTEGRITY[name]).then((part) => {
    // The hashes a part brings of the parts it loads (the pay part's; Object.assign() skips
    // the others' undefined).
    Object.assign(PART_INTEGRITY, (part as { integrity?: Record<string, string> }).integrity);
    return part;
  });
}

/**
 * A file that failed to load (`part`, or a locale's when none): when it was checked
 * (importChecked's `cause`), the diagnostics part judges whether its bytes were not the ones
 * built, and then stops the widget (./tampering.ts); this settles once it has judged. Anything
 * else (no answer) is a network failure, which the caller says.
 */
export function judgeFailure(
  error: unknown,
  widget: Failing,
  _part?: PartName,
): Promise<void> | undefined {
  const file = (error as { cause?: CheckedFile } | undefined)?.cause;
  if (file)
    return widget.load('diagnostics').then(
      (part) => part.judge(file, widget.host, (words) => widget.stop(words)),
      () => undefined,
    );
}
