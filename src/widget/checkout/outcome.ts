// Shows how a payment ended and tells the page: the confirmed outcome, and what went wrong
// when a payment or a load did not go through. The pay part's
// (src/widget/parts/pay.ts), with ./pay.ts: nothing is over before it could be paid.

import type { CheckoutView } from '../../next-step/types.ts';
import type { PaymentCheckoutDetail } from '../events.ts';
import { controlOf, valuesOf } from '../form/inputs.ts';
import type { StringName } from '../locales/en.ts';
import { emit, isFinalStatus } from '../parts/kit.ts';
import type { PayContext } from './context.ts';
import { asBackendError, report } from './report.ts';
import { diagnoseSettings } from './settings.ts';
import { outcomeOf } from './words.ts';

type Confirmed = PaymentCheckoutDetail['checkout'];

/**
 * The outcome each element last told its page, as `id status`: an element put back on the
 * page loads again and shows its checkout as it is now, but the page hears an outcome from
 * it once (a merchant counts purchases on payment-success).
 */
const told = new WeakMap<PayContext, string>();

/**
 * Shows a confirmed checkout and tells the merchant; the card number and CVV are wiped.
 * `resumed`: it was so before this page showed it (a reload, the bank's app, a tab; a boleto's
 * voucher issued before a reload).
 */
export async function settle(
  c: PayContext,
  checkout: CheckoutView,
  resumed?: boolean,
): Promise<void> {
  const { host, form } = c;
  form.setStatus('');
  const status = String(checkout.status);
  // The handler's answer, as its route types it (the widget reads only a few fields; an
  // answer without an id never got here: ./backend.ts).
  const detail = { checkout: checkout as Confirmed, ...(resumed && { resumed }) };
  const heard = told.get(c) === `${checkout.id} ${status}`;
  told.set(c, `${checkout.id} ${status}`);
  if (isFinalStatus(status)) {
    c.stepAbort?.abort();
    const paid = status === 'PAID';
    keep(c, !paid);
    c.to(outcomeOf(checkout));
    if (!heard) emit(host, paid ? 'payment-success' : 'payment-failure', detail);
  } else {
    c.to({ kind: 'pending', checkout });
    if (!heard) emit(host, 'payment-pending', detail);
  }
}

/**
 * Nothing to pay: the form goes, and the retry button shows if trying again may help. The
 * page's developer hears what of its settings the widget ignores (a broken-JSON order the
 * handler refused, say) as when the form shows.
 */
export function fail(c: PayContext, error: unknown, retryable?: boolean, key?: StringName): void {
  const e = asBackendError(error);
  c.to({ kind: 'broken', retryable: retryable ?? e.retryable });
  // A checkout that offers none of the methods the page names: which, told by name.
  diagnoseSettings(c, e.code === 'NO_PAYMENT_METHODS' ? [] : undefined);
  report(c, e, retryable, key);
}

/**
 * Wipes the card number, expiry and security code, and what the form said of them (a fresh
 * form's state): after a confirmed outcome, and when a step goes with the page or for
 * another card (./steps.ts). After a failure (`forAnotherCard`), keeps what else the shopper
 * typed (name, email, address) for another card on the basket's next checkout (./pay.ts
 * restore()); else nothing (what stays on screen stays in its inputs).
 */
export function keep(c: PayContext, forAnotherCard?: boolean): void {
  const { number: _number, expiry: _expiry, cvv: _cvv, ...kept } = valuesOf(c.form);
  c.kept = forAnotherCard ? kept : {};
  for (const field of ['number', 'expiry', 'cvv'] as const) {
    const input = controlOf(c.form, field);
    if (input) input.value = '';
  }
  c.form.clear();
}
