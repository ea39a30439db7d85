// `payment-widget/react`: <payment-widget> as a React component, `PaymentWidget`, made with
// @lit/react's createComponent; and the JSX typings of the bare tag (../typings/react.ts).
// A separate entry, so that only an app that imports it pays for React's wrapper.
//
// Server rendering: the element's properties and listeners are set in one layout effect
// (React sets neither on an element it hydrates), and until then the element waits for
// its checkout (src/widget/arrival.ts), so no event fires before its listener is there.
// The only attribute rendered is `payment-methods`, which the README's reserve-height rule
// reads before the script runs; server and browser render it alike, so hydration finds
// what the server sent. The build puts 'use client' on top (vite.react.config.ts).
import { createComponent, type EventName } from '@lit/react';
import * as React from 'react';
import { PaymentWidget as PaymentWidgetElement } from '../index.ts';
import type { PaymentWidgetEvents, PaymentWidgetProperties } from '../typings/element.ts';
import type { PaymentMethodId } from '../widget/methods/index.ts';

export type { PaymentWidgetJsxProps } from '../typings/react.ts';

/** `payment-success` -> `PaymentSuccess`. */
type Pascal<S extends string> = S extends `${infer Head}-${infer Tail}`
  ? `${Capitalize<Head>}${Pascal<Tail>}`
  : Capitalize<S>;

/** `onPaymentSuccess` and the others, each typed by its event's detail. */
export type PaymentWidgetEventHandlers = {
  [K in keyof PaymentWidgetEvents as `on${Pascal<K>}`]?: (event: PaymentWidgetEvents[K]) => void;
};

/** Each prop's event, for createComponent; checked against the events the element fires. */
const EVENTS = {
  onPaymentReady: 'payment-ready',
  onPaymentChange: 'payment-change',
  onPaymentSubmit: 'payment-submit',
  onPaymentInvalid: 'payment-invalid',
  onPaymentChallenge: 'payment-challenge',
  onPaymentSuccess: 'payment-success',
  onPaymentPending: 'payment-pending',
  onPaymentFailure: 'payment-failure',
  onPaymentError: 'payment-error',
} as const satisfies Required<{ [K in keyof PaymentWidgetEventHandlers]: string }>;

/** The element's settings as props: its properties, with the methods as a typed list. */
export type PaymentWidgetOptions = Omit<PaymentWidgetProperties, 'paymentMethods'> & {
  /**
   * The methods to offer, of those the backend offers; unset: all of them. A list, or the
   * attribute's space-separated text (`"card ideal"`).
   */
  paymentMethods?: readonly PaymentMethodId[] | string;
};

/** What `<PaymentWidget>` takes: the element's settings, its events, and React's own props. */
export interface PaymentWidgetProps
  extends PaymentWidgetOptions,
    PaymentWidgetEventHandlers,
    Omit<React.HTMLAttributes<PaymentWidgetElement>, 'children' | 'onChange' | 'onSubmit'> {}

const Element = createComponent({
  react: React,
  tagName: 'payment-widget',
  elementClass: PaymentWidgetElement,
  events: EVENTS as {
    [K in keyof typeof EVENTS]: EventName<PaymentWidgetEvents[(typeof EVENTS)[K]]>;
  },
  displayName: 'payment-widget',
});

/** A layout effect in the browser; nothing on the server (React 18 warns of one there). */
const useBrowserLayoutEffect: typeof React.useLayoutEffect =
  typeof document === 'undefined' ? () => {} : React.useLayoutEffect;

/**
 * `<payment-widget>` for React 18 and 19, server rendering included (Next.js, Remix):
 * `<PaymentWidget order={order} endpoint="/api/payments" onPaymentSuccess={...} />`.
 *
 * `checkoutId` is handed to the element only when the prop changes, not on every render as
 * createComponent hands the rest: after "Try another card" the element moves to the
 * basket's next checkout itself, and a re-render (a result page's state set by
 * onPaymentReady or onPaymentSuccess) must not take it back to the one that failed.
 */
export const PaymentWidget = React.forwardRef<PaymentWidgetElement, PaymentWidgetProps>(
  function PaymentWidget({ paymentMethods, checkoutId, ...props }, ref) {
    const methods = typeof paymentMethods === 'string' ? paymentMethods : paymentMethods?.join(' ');
    const element = React.useRef<PaymentWidgetElement | null>(null);
    const attach = React.useCallback(
      (node: PaymentWidgetElement | null) => {
        element.current = node;
        if (typeof ref === 'function') ref(node);
        else if (ref) ref.current = node;
      },
      [ref],
    );
    // After createComponent's own effect (a child's runs first): in the same commit as the
    // order and the listeners, which a server-rendered element waits for.
    useBrowserLayoutEffect(() => {
      if (element.current) element.current.checkoutId = checkoutId;
    }, [checkoutId]);
    return React.createElement(Element, {
      ...props,
      paymentMethods: methods,
      'payment-methods': methods,
      ref: attach,
    } as React.ComponentProps<typeof Element>);
  },
);
