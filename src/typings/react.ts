// `payment-widget/react`: <payment-widget> in React 19 JSX, typed. A separate
// entry so that only an app with React's types loads it:
//   import type {} from 'payment-widget/react';
// React 19 sets each prop the element has as a property (`order={...}`), and
// turns `onpayment-success={...}` into addEventListener('payment-success', ...).
import type { DetailedHTMLProps, HTMLAttributes } from 'react';
import type { PaymentWidget } from '../widget/payment-widget.ts';
import type { PaymentWidgetEventProps, PaymentWidgetProperties } from './element.ts';

/** The props <payment-widget> takes in JSX: React's own, the element's properties, its events. */
export type PaymentWidgetJsxProps = DetailedHTMLProps<
  HTMLAttributes<PaymentWidget>,
  PaymentWidget
> &
  PaymentWidgetProperties &
  PaymentWidgetEventProps;

declare module 'react' {
  namespace JSX {
    interface IntrinsicElements {
      'payment-widget': PaymentWidgetJsxProps;
    }
  }
}
