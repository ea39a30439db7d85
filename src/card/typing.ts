// What a card field shows while the shopper types: its text regrouped and the
// caret kept after the digit it followed. Pure functions of (text, caret), so
// every edit can be checked in a table; the element only reads and writes its
// inputs through them.

import { type CardNetwork, networkRules } from '../shared/card-networks.ts';
import { digitsOnly } from '../shared/luhn.ts';
import { formatExpiry } from './expiry.ts';
import { formatNumber } from './number.ts';
import type { Formatted } from './types.ts';

/** The card fields that format as they are typed. */
export type TypedField = 'number' | 'expiry' | 'cvv';

export function isTypedField(field: string): field is TypedField {
  return field === 'number' || field === 'expiry' || field === 'cvv';
}

/**
 * The fields whose text typing rewrites: the card fields, and the ZIP code, the tax id and a
 * boleto's postal code, whose digits are read as ASCII. Any other field (a name, an address)
 * is kept as typed.
 */
export type RetypedField = TypedField | 'zip' | 'taxId' | 'postalCode';

export function isRetypedField(field: string): field is RetypedField {
  return isTypedField(field) || field === 'zip' || field === 'taxId' || field === 'postalCode';
}

/** The security code's length: the network's, or AMEX's four while the network is unknown. */
export function cvvLength(network: CardNetwork | undefined): number {
  return network ? networkRules(network).cvvLength : 4;
}

/**
 * The field's text after an edit, and where the caret goes: the number grouped
 * by its network's gaps, the expiry as "MM / YY", the code cut to its length.
 * `network` is the one the number field shows (it sets the code's length).
 * The digits an Arabic (٠-٩), Persian (۰-۹) or Japanese full-width (０-９) keyboard types
 * count as the digits they are, written as ASCII one character for one, so the caret's
 * place holds; in the ZIP code, the tax id and the postal code too, whose text is otherwise
 * kept as typed.
 */
export function retype(
  field: RetypedField,
  typed: string,
  caret: number,
  network?: CardNetwork,
): Formatted {
  // Each run of ten starts at a code point that is a multiple of 16 (U+0660, U+06F0, U+FF10),
  // so a digit's value is its code point's remainder by 16. Escaped: the bundle keeps them so,
  // ASCII whatever charset the file is read in, and they gzip smaller than the characters.
  const value = typed.replace(/[\u0660-\u0669\u06f0-\u06f9\uff10-\uff19]/g, (digit) =>
    String(digit.charCodeAt(0) % 16),
  );
  if (field === 'number') return formatNumber(value, caret);
  if (field === 'expiry') return formatExpiry(value, caret);
  if (field !== 'cvv') return { value, caret };
  const code = digitsOnly(value).slice(0, cvvLength(network));
  return { value: code, caret: Math.min(caret, code.length) };
}

/**
 * Backspace right after a separator that formatting puts back ("4242 |4242",
 * "12 / |3") would do nothing at all: the edit that deletes the digit before
 * it instead, or undefined when a plain backspace does the right thing (a
 * selection, a digit before the caret, or no digit at all before it). Delete
 * (`forward`) right before one ("4242| 4242", "12| / 34") deletes the digit after it,
 * the separator and the caret staying where they are.
 */
export function deleteOverSeparator(
  value: string,
  start: number,
  end: number,
  forward?: boolean,
): Formatted | undefined {
  if (start !== end) return undefined;
  if (forward) {
    const digit = start + value.slice(start).search(/\d/);
    return digit > start
      ? { value: value.slice(0, digit) + value.slice(digit + 1), caret: start }
      : undefined;
  }
  const digitEnd = value.slice(0, start).replace(/\D+$/, '').length;
  // A digit right before the caret (or the start) wants the plain backspace; so does a
  // separator with no digit before it.
  if (digitEnd === start || digitEnd === 0) return undefined;
  return { value: value.slice(0, digitEnd - 1) + value.slice(start), caret: digitEnd - 1 };
}
