// Why a settled payment failed, and what may be tried after: the texts live in the
// locales; this picks the key. (The message for an error's code is the pay part's:
// ./messages.ts.)

import type { CheckoutView } from '../../next-step/types.ts';
import type { Lifecycle } from '../state.ts';

/**
 * The next step a checkout's last attempt went through ('' for none; its kind, with `:left`
 * once the shopper left it for another card: steps.ts), kept for the tab (a full-page 3DS
 * leaves the page): a failure after a 3DS challenge is an authentication that failed. Reads
 * it, or with `kind` writes it. Storage may be off (a sandboxed frame): then it is unknown.
 */
export function stepOf(id: string, kind?: string): string | null {
  try {
    const key = `payment-widget:step:${id}`;
    if (kind === undefined) return sessionStorage.getItem(key);
    sessionStorage.setItem(key, kind);
  } catch {
    // Unknown, then: the failure reads as declined.
  }
  return null;
}

/**
 * Why checkout `id` did not get paid, in the shopper's words: deactivated (the basket
 * changed), a card declined, the bank out of reach, or its 3DS failed. A bank or a boleto says no for its own
 * reasons, and says them itself: none here.
 */
export function failureReason(
  status: string,
  id: string,
  transactions?: unknown,
): Extract<Lifecycle, { kind: 'done' }>['reason'] {
  if (status === 'EXPIRED') return 'noLongerValid';
  // Failed with no payment at all: the bank was never asked (a 3DS technical error).
  if (Array.isArray(transactions) && transactions.length === 0) return 'bankUnreachable';
  const step = stepOf(id);
  if (!step) return 'declined';
  return step.startsWith('challenge') ? 'authFailed' : undefined;
}

/**
 * What the button under a failure offers for checkout `id`: another card, or, after a
 * bank's page or a boleto, another way to pay (the shopper paid with no card).
 */
export function anotherTry(id: string): 'tryAnotherCard' | 'tryAnotherWay' {
  const step = stepOf(id);
  return step === 'apm-redirect' || step === 'voucher' ? 'tryAnotherWay' : 'tryAnotherCard';
}

/**
 * A final checkout as the widget shows it: paid, or failed with why (`failureReason`) and
 * the button that may still pay the basket (`anotherTry`; none once it is no longer valid).
 */
export function outcomeOf(checkout: CheckoutView): Extract<Lifecycle, { kind: 'done' }> {
  const paid = checkout.status === 'PAID';
  const id = String(checkout.id);
  const reason = paid
    ? undefined
    : failureReason(String(checkout.status), id, checkout.transactions);
  return {
    kind: 'done',
    outcome: paid ? 'success' : 'failure',
    checkout,
    reason,
    offer: paid || reason === 'noLongerValid' ? undefined : anotherTry(id),
  };
}
