import { type CardNetwork, networkRules } from '../shared/card-networks.ts';

/** The security code: exactly the network's length (AMEX 4, every other network 3). */
export function isCvv(value: string, network: CardNetwork): boolean {
  const text = value.trim();
  return /^\d*$/.test(text) && text.length === networkRules(network).cvvLength;
}

/**
 * Whether `value` is a US ZIP code: five digits, or ZIP+4 ("12345-6789", "12345 6789",
 * "123456789"). The provider's `zip_code` takes exactly five digits, so callers send the
 * first five.
 */
export function isZip(value: string): boolean {
  return /^\d{5}([\s-]?\d{4})?$/.test(value.trim());
}
