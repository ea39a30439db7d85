// What a part of the widget that loads on demand (./imports.ts) takes from the code that
// painted the form: Lit's template and style tags, so a page runs one Lit whichever build
// it loads, and the helpers the parts share with that code (the calls to the backend, the
// events, a few words of the domain). A part imports a module the bundle also holds only
// through here: in the script-tag build a part is a file of its own (dist/parts/), built
// with ./kit-lent.ts in this file's place, which reads the same names from the bundle that
// loaded it, and a module imported directly would be a second copy in the part. In that
// build 'lit' itself resolves to ./kit-lent.ts, so a module that parts and tests share may
// import it as usual. A name added here is added to ./kit-lent.ts too (the parts build
// fails on a name it cannot find there).
export { html, nothing, svg } from 'lit';
export { isFinalStatus } from '../../domain/checkout.ts';
export { isRecord } from '../../shared/record.ts';
export {
  BackendError,
  call,
  checkoutAt,
  checkoutPath,
  getCheckout,
  TIMEOUT_MS,
} from '../checkout/backend.ts';
export { css } from '../css.ts';
export { emit } from '../events.ts';
export { nextFrame } from '../frame.ts';
export { format, formatMoney } from '../locales/format.ts';
export { isPaymentMethodId, METHOD_IDS } from '../methods/index.ts';
export { importChecked } from './checked-import.ts';
