// ./kit.ts as the parts that the script-tag build loads from beside it (dist/parts/) see
// it: the names the bundle lent them when it ran (./imports-beside.ts), so each part uses
// the bundle's own Lit and helpers instead of carrying a copy. The parts build
// (vite.parts.config.ts) puts this file in kit.ts's place.
//
// A name each, marked pure: a part that never uses a name leaves its line out (the step and
// languages parts use three of them), where one destructuring of them all stayed whole in
// every part, unused names and all (160 B gzip of the step part's budget).
import type * as Kit from './kit.ts';
import { KIT } from './lend.ts';

const lent = (globalThis as unknown as Record<symbol, typeof Kit | undefined>)[KIT];
if (!lent) throw new Error('payment-widget: a part loaded without the bundle that lends it Lit');

/** The bundle's `name`, as ./kit.ts exports it. */
const lend = <K extends keyof typeof Kit>(name: K): (typeof Kit)[K] => lent[name];

export const BackendError = /* @__PURE__ */ lend('BackendError');
export const call = /* @__PURE__ */ lend('call');
export const checkoutAt = /* @__PURE__ */ lend('checkoutAt');
export const checkoutPath = /* @__PURE__ */ lend('checkoutPath');
export const css = /* @__PURE__ */ lend('css');
export const emit = /* @__PURE__ */ lend('emit');
export const format = /* @__PURE__ */ lend('format');
export const formatMoney = /* @__PURE__ */ lend('formatMoney');
export const getCheckout = /* @__PURE__ */ lend('getCheckout');
export const html = /* @__PURE__ */ lend('html');
export const importChecked = /* @__PURE__ */ lend('importChecked');
export const isFinalStatus = /* @__PURE__ */ lend('isFinalStatus');
export const isPaymentMethodId = /* @__PURE__ */ lend('isPaymentMethodId');
export const isRecord = /* @__PURE__ */ lend('isRecord');
export const METHOD_IDS = /* @__PURE__ */ lend('METHOD_IDS');
export const nextFrame = /* @__PURE__ */ lend('nextFrame');
export const nothing = /* @__PURE__ */ lend('nothing');
export const svg = /* @__PURE__ */ lend('svg');
export const TIMEOUT_MS = /* @__PURE__ */ lend('TIMEOUT_MS');
