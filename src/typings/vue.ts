// `payment-widget/vue`: <payment-widget> in Vue templates, typed for vue-tsc
// (Volar). A separate entry so that only an app with Vue loads it:
//   import type {} from 'payment-widget/vue';
// Vue's compiler must still be told the tag is a custom element
// (`isCustomElement`); these types only teach the template checker its
// properties and events, the way Vue's guide types a custom element.
import type { EmitFn, HTMLAttributes, PublicProps } from 'vue';
import type { PaymentWidget } from '../widget/payment-widget.ts';
import type { PaymentWidgetEvents, PaymentWidgetProperties } from './element.ts';

type Listeners = { [K in keyof PaymentWidgetEvents]: (event: PaymentWidgetEvents[K]) => void };

/** The element as the template checker sees a component. */
export type PaymentWidgetVueComponent = new () => PaymentWidget & {
  /** @deprecated For template type checking only; not a property of the element. */
  $props: HTMLAttributes & PaymentWidgetProperties & PublicProps;
  /** @deprecated For template type checking only; not a method of the element. */
  $emit: EmitFn<Listeners>;
};

declare module 'vue' {
  interface GlobalComponents {
    'payment-widget': PaymentWidgetVueComponent;
  }
}
