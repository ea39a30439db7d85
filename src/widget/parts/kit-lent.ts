// ./kit.ts as the parts that the script-tag build loads from beside it (dist/parts/) see
// it: the names the bundle lent them when it ran (./imports-beside.ts), so each part uses
// the bundle's own Lit and helpers instead of carrying a copy. The parts build
// (vite.parts.config.ts) puts this file in kit.ts's place.
import type * as Kit from './kit.ts';
import { KIT } from './lend.ts';

const lent = (globalThis as unknown as Record<symbol, typeof Kit | undefined>)[KIT];
if (!lent) throw new Error('payment-widget: a part loaded without the bundle that lends it Lit');

export const {
  asBackendError,
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
} = lent;
