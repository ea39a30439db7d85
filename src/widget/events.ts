// The element's public events: typed CustomEvents, bubbling and composed
// so a merchant can listen on the element or any ancestor, even across shadow
// roots. No detail ever carries a card number or a security code: only the
// network and the last four digits, which the provider itself shows on receipts.

import type { PaymentErrorCode } from '../domain/errors.ts';
import type { PublicCheckout } from '../schemas/checkout.ts';
import type { FieldErrorCode, FieldName } from './form/fields.ts';
import type { PaymentMethodId } from './methods/index.ts';

export type { FieldErrorCode, FieldName };

export interface PaymentReadyDetail {
  paymentMethods: PaymentMethodId[];
}
export interface PaymentChangeDetail {
  valid: boolean;
  complete: boolean;
  network: string | undefined;
  paymentMethod: PaymentMethodId;
}
export interface PaymentSubmitDetail {
  paymentMethod: PaymentMethodId;
  last4?: string;
  network?: string;
}
/** A field that stopped a submit: which, what is wrong with it, and the words shown under it. */
export interface FieldError {
  field: FieldName;
  code: FieldErrorCode;
  /** The shopper's words, in the widget's locale (as shown under the field). */
  message: string;
}
export interface PaymentInvalidDetail {
  errors: FieldError[];
}
export interface PaymentChallengeDetail {
  mode: 'iframe' | 'redirect';
  url: string;
}
export interface PaymentCheckoutDetail {
  /** The checkout as the handler confirmed it (read back from the provider). */
  checkout: PublicCheckout & { id: string };
  /**
   * True when the checkout was so before this page showed it: settled (a reload, a return
   * from the bank's app, another tab), or pending with a boleto's voucher issued before a
   * reload. The merchant's page shows the outcome; nothing was paid or issued now.
   */
  resumed?: boolean;
}
export interface PaymentErrorDetail {
  /** One of a closed set; the README's table says what each means and what to do. */
  code: PaymentErrorCode;
  /** For the merchant's logs (English), not for the shopper: the widget shows its own text. */
  message: string;
  /** Whether the same payment may succeed if tried again: the server's word, passed on. */
  retryable: boolean;
  /** The `X-Request-Id` of the call that failed, to find it in the server's logs. */
  requestId?: string;
}

export interface PaymentEventDetails {
  'payment-ready': PaymentReadyDetail;
  'payment-change': PaymentChangeDetail;
  'payment-submit': PaymentSubmitDetail;
  'payment-invalid': PaymentInvalidDetail;
  'payment-challenge': PaymentChallengeDetail;
  'payment-success': PaymentCheckoutDetail;
  'payment-pending': PaymentCheckoutDetail;
  'payment-failure': PaymentCheckoutDetail;
  'payment-error': PaymentErrorDetail;
}

export type PaymentEventName = keyof PaymentEventDetails;

/**
 * Dispatches the widget's event `name` with `detail` from `target` as the widget does: it
 * bubbles, and crosses shadow roots (`composed`).
 */
export function emit<K extends PaymentEventName>(
  target: EventTarget,
  name: K,
  detail: PaymentEventDetails[K],
): void {
  target.dispatchEvent(new CustomEvent(name, { detail, bubbles: true, composed: true }));
}

declare global {
  interface GlobalEventHandlersEventMap {
    'payment-ready': CustomEvent<PaymentReadyDetail>;
    'payment-change': CustomEvent<PaymentChangeDetail>;
    'payment-submit': CustomEvent<PaymentSubmitDetail>;
    'payment-invalid': CustomEvent<PaymentInvalidDetail>;
    'payment-challenge': CustomEvent<PaymentChallengeDetail>;
    'payment-success': CustomEvent<PaymentCheckoutDetail>;
    'payment-pending': CustomEvent<PaymentCheckoutDetail>;
    'payment-failure': CustomEvent<PaymentCheckoutDetail>;
    'payment-error': CustomEvent<PaymentErrorDetail>;
  }
}
