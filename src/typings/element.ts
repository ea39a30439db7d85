// What a framework's templates may put on <payment-widget>, derived from the
// element itself so the typings cannot drift from it: its properties (those
// mount() takes) and one listener per event, typed by the event's detail.
import type { PaymentEventName } from '../widget/events.ts';
import type { WidgetOptions } from '../widget/mount.ts';
import type { PaymentWidget } from '../widget/payment-widget.ts';

type Settable = Pick<PaymentWidget, Exclude<keyof WidgetOptions, 'onResponse'>>;

/**
 * The element's settable properties, typed as the element types them; `undefined` for any
 * of them is its default (what React passes for a prop a page leaves out).
 */
export type PaymentWidgetProperties = { [K in keyof Settable]?: Settable[K] | undefined };

/** Each event's type, from the same map `addEventListener` reads. */
export type PaymentWidgetEvents = {
  [K in PaymentEventName]: GlobalEventHandlersEventMap[K];
};

/** `onpayment-success` and the others: React 19 listens to `on` + the event's name. */
export type PaymentWidgetEventProps = {
  [K in PaymentEventName as `on${K}`]?: (event: PaymentWidgetEvents[K]) => void;
};
