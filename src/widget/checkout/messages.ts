// What the shopper reads about a payment or a load that did not go through: the message
// for an error's code. The pay part's (src/widget/parts/pay.ts), which brings the words.

import type { PaymentErrorCode } from '../../domain/errors.ts';
import type { StringName } from '../locales/en.ts';

/**
 * What the shopper reads for a payment-error code; anything else is errBackend. A Map, not an
 * object: the code comes from a server's answer, and `constructor` is no key of this one.
 */
const MESSAGES = new Map<PaymentErrorCode, StringName>([
  ['NETWORK_ERROR', 'errNetwork'],
  ['TIMEOUT', 'errNetwork'],
  ['MISSING_CHECKOUT', 'errNoCheckout'],
  ['NO_PAYMENT_METHODS', 'errNoMethods'],
  ['NOT_FOUND', 'errNotFound'],
]);

export const messageFor = (code: PaymentErrorCode): StringName =>
  MESSAGES.get(code) ?? 'errBackend';
