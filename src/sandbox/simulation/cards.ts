// Card rules of the sandbox: Luhn, network detection and the documented test-card outcomes.
// Pure functions, so tests can table them without a server.

import { sameAmount } from '../../schemas/currencies.ts';
import { detectNetwork } from '../../shared/card-networks.ts';
import { luhn } from '../../shared/luhn.ts';

/** Luhn over a 12-19 digit number: the sandbox charges any Luhn-valid number it does not list. */
export function luhnValid(number: string): boolean {
  return /^\d{12,19}$/.test(number) && luhn(number);
}

// The network comes from the same prefix tables the widget uses (src/shared/card-networks.ts),
// so the type the sandbox records for a card is the one the widget showed the shopper.
export { detectNetwork };

const CHALLENGE_CARDS: ReadonlySet<string> = new Set([
  '4200000000000042',
  '4200000000000067',
  '5200000000000015',
  '5200000000000049',
]);

/** 3DS technical error: the attempt fails without a challenge. */
export const TECHNICAL_ERROR_CARDS: ReadonlySet<string> = new Set([
  '4012001037461114',
  '5434580000000006',
]);

/**
 * Amounts the issuer declines whatever the card, in the payment's currency to its minor unit
 * (no float drift): 11 yen or forints, 11.000 dinars (not 11.004), 42.01 euros; a currency
 * without cents has 11 alone.
 */
const DECLINED_AMOUNTS: readonly number[] = [11, 42.01, 42.76, 42.91];

export function isDeclinedAmount(amount: number, currency: string): boolean {
  return DECLINED_AMOUNTS.some((declined) => sameAmount(declined, amount, currency));
}

export type CardOutcome = 'paid' | 'challenge' | 'technical-error';

/** What presenting this number does before authorisation (the amount is checked after). */
export function cardOutcome(number: string): CardOutcome {
  if (TECHNICAL_ERROR_CARDS.has(number)) return 'technical-error';
  if (CHALLENGE_CARDS.has(number)) return 'challenge';
  return 'paid';
}

// Whether a card has expired is the widget's rule too (src/shared/expiry.ts), both in UTC: a
// card the widget lets through is not refused here as expired (unless the clock was moved).
export { expiryInFuture } from '../../shared/expiry.ts';
