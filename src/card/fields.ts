import { type CardNetwork, networkRules } from '../shared/card-networks.ts';
import type { FieldCheck } from './types.ts';

/** The security code: exactly the network's length (AMEX 4, every other network 3). */
export function checkCvv(value: string, network: CardNetwork): FieldCheck {
  const text = value.trim();
  const { cvvLength } = networkRules(network);
  const digitsOnly = /^\d*$/.test(text);
  return {
    isValid: digitsOnly && text.length === cvvLength,
    isPotentiallyValid: digitsOnly && text.length <= cvvLength,
  };
}

/**
 * Whether `value` is a US ZIP code: five digits, or ZIP+4 ("12345-6789", "12345 6789",
 * "123456789"). The provider's `zip_code` takes exactly five digits, so callers send the
 * first five. Only whether it is one: the widget checks a ZIP code as a whole, never as
 * typed so far (a FieldCheck's isPotentiallyValid).
 */
export function isZip(value: string): boolean {
  return /^\d{5}([\s-]?\d{4})?$/.test(value.trim());
}
