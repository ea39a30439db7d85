// `payment-widget`: importing this module registers <payment-widget>. In the
// script-tag build these named exports become `window.PaymentWidget.*`.
import './widget/define.ts';

export type { PaymentErrorCode } from './domain/errors.ts';
export type { PublicCheckout } from './schemas/checkout.ts';
export type {
  PaymentWidgetEventProps,
  PaymentWidgetEvents,
  PaymentWidgetProperties,
} from './typings/element.ts';
export type * from './widget/events.ts';
export type { PaymentMethodId } from './widget/methods/index.ts';
export {
  type MountedWidget,
  type MountOptions,
  mount,
  type ResponseType,
  type WidgetOptions,
} from './widget/mount.ts';
export { PaymentWidget } from './widget/payment-widget.ts';
