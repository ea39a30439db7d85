// What is wrong with each field, and the card's network as typed: the rules the pay part
// (src/widget/parts/pay.ts) brings, so they load after the form's first paint.

import {
  type CardNetwork,
  checkCvv,
  checkExpiry,
  checkNumber,
  checkZip,
  detectNetwork,
  digitsOnly,
} from '../../card/index.ts';
import type { Errors, FieldName, Values } from './fields.ts';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The network the number belongs to, as far as it is typed. */
export function networkOf(number: string | undefined): CardNetwork | undefined {
  return number ? detectNetwork(number) : undefined;
}

function check(field: FieldName, value: string, values: Values, now: Date): boolean {
  switch (field) {
    case 'number':
      return checkNumber(digitsOnly(value)).isValid;
    case 'expiry':
      return checkExpiry(value, now).isValid;
    case 'cvv':
      return checkCvv(value, networkOf(values.number) ?? 'UNKNOWN').isValid;
    case 'zip':
      return checkZip(value).isValid;
    case 'email':
      return EMAIL.test(value);
    case 'taxId': {
      const n = digitsOnly(value).length;
      return n === 11 || n === 14;
    }
    case 'installments': {
      const n = Number(value);
      return Number.isInteger(n) && n >= 1 && n <= 12;
    }
    default:
      return true;
  }
}

/** What is wrong with each of `fields`; a field missing from the result is fine. */
export function validate(fields: FieldName[], values: Values, now: Date = new Date()): Errors {
  const errors: Errors = {};
  for (const field of fields) {
    const value = (values[field] ?? '').trim();
    if (!value) errors[field] = 'required';
    else if (!check(field, value, values, now)) errors[field] = 'invalid';
  }
  return errors;
}
