// ./imports.ts for the self-contained builds (the script tag's, and dist/payment-widget.js),
// which vite.config.ts builds with this file in its place: each part is a file built
// beside the bundle (`parts/pay.js`), loaded from the bundle's own URL (and the languages
// part finds each locale's file, `locales/de-CH.js`, from its own). The parts were built
// without Lit (vite.parts.config.ts): the bundle lends them its own, here, as it runs.
import { besideBundle } from '../../shared/bundle-url.ts';
import type * as Kit from './kit.ts';
import {
  asBackendError,
  BackendError,
  call,
  checkoutAt,
  checkoutPath,
  css,
  emit,
  format,
  getCheckout,
  html,
  isFinalStatus,
  isPaymentMethodId,
  isRecord,
  isRedirectMethod,
  nothing,
  svg,
  TIMEOUT_MS,
} from './kit.ts';
import { KIT } from './lend.ts';
import type { PartModules, PartName } from './types.ts';

// A plain object, not `import * as`: a module namespace in the bundle costs a helper that
// defines a getter per name (80 B gzip). The type makes a name added to ./kit.ts an error
// here until it is lent too.
const kit: typeof Kit = {
  asBackendError,
  BackendError,
  call,
  checkoutAt,
  checkoutPath,
  css,
  emit,
  format,
  getCheckout,
  html,
  isFinalStatus,
  isPaymentMethodId,
  isRecord,
  isRedirectMethod,
  nothing,
  svg,
  TIMEOUT_MS,
};

const lent = globalThis as unknown as Record<symbol, typeof Kit | undefined>;
lent[KIT] ??= kit;

export function importPart<N extends PartName>(name: N): Promise<PartModules[N]> {
  return import(/* @vite-ignore */ besideBundle(`widget/parts/${name}.ts`, `./parts/${name}.js`));
}
