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
 * A US ZIP code: five digits, or ZIP+4 ("12345-6789", "12345 6789", "123456789"). The
 * provider's `zip_code` takes exactly five digits, so callers send the first five.
 */
export function checkZip(value: string): FieldCheck {
  const text = value.trim();
  return {
    isValid: /^\d{5}([\s-]?\d{4})?$/.test(text),
    isPotentiallyValid: /^(\d{0,5}|\d{5}[\s-]?\d{0,4})$/.test(text),
  };
}
