// `PaymentWidget.mount({...})` for pages that use the script tag and would
// rather call a function than write markup, with the callback names merchants
// know from the provider's own card widget.

import { PaymentWidget } from './payment-widget.ts';

export type ResponseType = 'sent' | 'invalid' | 'auth-screen' | 'error' | 'success' | 'fail';

/** onResponse's type -> the element's event, less its `payment-` prefix. */
const RESPONSES: Record<ResponseType, string> = {
  sent: 'submit',
  invalid: 'invalid',
  'auth-screen': 'challenge',
  error: 'error',
  success: 'success',
  fail: 'failure',
};

/** The element's properties a page may set through mount() and update(). */
type Settable =
  | 'checkoutId'
  | 'order'
  | 'endpoint'
  | 'locale'
  | 'paymentMethods'
  | 'noSubmitButton'
  | 'showZipCode'
  | 'showEmail'
  | 'showInstallments'
  | 'maxInstallments'
  | 'customerId'
  | 'saveCard'
  | 'challenge'
  | 'donate'
  | 'translations';

export type WidgetOptions = Partial<Pick<PaymentWidget, Exclude<Settable, 'paymentMethods'>>> & {
  /** Space-separated like the attribute, or an array. */
  paymentMethods?: string | string[];
  /** Called with the event's detail; `type` is one of the provider widget's names. */
  onResponse?: (type: ResponseType, body: unknown) => void;
};

/** What `mount()` takes: where to put the widget, and the element's properties to set on it. */
export interface MountOptions extends WidgetOptions {
  /** The id of the element the widget is put into. */
  id: string;
}

/** A widget put on the page by `mount()`. */
export interface MountedWidget {
  /** Validates the fields, then pays: what the widget's own Pay button does. */
  submit(): Promise<void>;
  /** Sets these properties on the widget (and replaces `onResponse`, when given). */
  update(options: WidgetOptions): void;
  /** Takes the widget off the page and stops calling `onResponse`. */
  unmount(): void;
}

function apply(widget: PaymentWidget, options: WidgetOptions): void {
  for (const [key, value] of Object.entries(options)) {
    // Only the element's properties (its table): `id` and `onResponse` are mount()'s own.
    if (!PaymentWidget.properties[key]) continue;
    (widget as unknown as Record<string, unknown>)[key] =
      key === 'paymentMethods' && Array.isArray(value) ? value.join(' ') : value;
  }
}

/**
 * Puts a `<payment-widget>` into the element with id `options.id`, sets the properties given,
 * and calls `onResponse` for each of its events. Throws when no element has that id.
 *
 * @example
 * PaymentWidget.mount({ id: 'pay', endpoint: '/payments', order: { sku: 'poster' } });
 */
export function mount(options: MountOptions): MountedWidget {
  const host = document.getElementById(options.id);
  if (!host) throw new Error(`PaymentWidget.mount: no element with id "${options.id}"`);
  let onResponse = options.onResponse;
  const widget = document.createElement('payment-widget');
  apply(widget, options);
  for (const [type, event] of Object.entries(RESPONSES) as [ResponseType, string][]) {
    widget.addEventListener(`payment-${event}`, (e) =>
      onResponse?.(type, (e as CustomEvent).detail),
    );
  }
  host.append(widget);
  return {
    submit: () => widget.submit(),
    update(next) {
      if ('onResponse' in next) onResponse = next.onResponse;
      apply(widget, next);
    },
    unmount() {
      widget.remove();
    },
  };
}
