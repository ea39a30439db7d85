// `payment-widget/script-tag`: the global a page gets from the script-tag build
// (dist/payment-widget.iife.js), for that page's own TypeScript:
//   /// <reference types="payment-widget/script-tag" />
// A separate entry because only that build defines the global; an app that
// imports the package gets the same names from its import instead.
import type * as PaymentWidgetExports from '../index.ts';

declare global {
  /** The package's named exports: `PaymentWidget.mount({...})`, `PaymentWidget.PaymentWidget`. */
  var PaymentWidget: typeof PaymentWidgetExports;
}
