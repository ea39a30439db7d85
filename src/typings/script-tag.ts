// `payment-widget/script-tag`: the global a page gets from the script-tag build
// (dist/payment-widget.iife.js), for that page's own TypeScript:
//   /// <reference types="payment-widget/script-tag" />
// A separate entry because only that build defines the global; an app that
// imports the package gets the same names from its import instead. The global holds the
// package's named values (../index.ts), each named here: a value added there is added here.
import type { mount, PaymentWidget as PaymentWidgetElement } from '../index.ts';

/**
 * The package's named exports: `PaymentWidget.mount({...})`, `PaymentWidget.PaymentWidget`.
 * Named outside `declare global`, where the global's own name would hide the element's.
 */
interface PaymentWidgetGlobal {
  mount: typeof mount;
  PaymentWidget: typeof PaymentWidgetElement;
}

declare global {
  /** The package's named exports: `PaymentWidget.mount({...})`, `PaymentWidget.PaymentWidget`. */
  var PaymentWidget: PaymentWidgetGlobal;
}
