import { detectNetwork, networkRules } from '../shared/card-networks.ts';
import { digitsOnly, luhn } from '../shared/luhn.ts';
import type { Formatted } from './types.ts';

/**
 * Whether a card number is whole and right; spaces and dashes may separate digits, anything
 * else makes it invalid.
 *
 * UnionPay (CUP) numbers are checked for length only, not Luhn: UnionPay does not require a
 * Luhn check digit and issues cards (notably 62-series debit cards) that fail it, so a Luhn
 * rule would lock real cardholders out. card-validator makes the same call by default. The
 * issuer still rejects a mistyped number; the user just learns it one step later.
 *
 * A number no listed network claims (UNKNOWN) is accepted at 12-19 digits with a good Luhn
 * digit: the provider names UNKNOWN as a card type, and it, not the widget, knows which
 * networks the merchant takes.
 */
export function isCardNumber(value: string): boolean {
  const digits = digitsOnly(value);
  const network = detectNetwork(digits);
  return (
    /^[\d\s-]*$/.test(value) &&
    // No card number starts with 0: ISO/IEC 7812 keeps that industry digit for ISO itself.
    digits[0] !== '0' &&
    networkRules(network).lengths.includes(digits.length) &&
    (network === 'CUP' || luhn(digits))
  );
}

/**
 * Groups the digits by the network's gaps ("4200 0000 0000 0091", "3782 822463 10005") and
 * keeps the caret after the same digit it followed before, so typing, deleting and pasting
 * anywhere in the field feel natural. Only non-digits and digits beyond the network's longest
 * number are dropped.
 */
export function formatNumber(value: string, caret: number): Formatted {
  const all = digitsOnly(value);
  const { lengths, gaps } = networkRules(detectNetwork(all));
  const digits = all.slice(0, Math.max(...lengths));
  const before = Math.min(digitsOnly(value.slice(0, caret)).length, digits.length);
  let out = '';
  let at = 0;
  for (let i = 0; i < digits.length; i++) {
    if (gaps.includes(i)) out += ' ';
    out += digits[i];
    if (i + 1 === before) at = out.length;
  }
  return { value: out, caret: at };
}
