// What is wrong with each field: the pay part's (src/widget/parts/pay.ts), so it loads after
// the form's first paint. Every field is required; an email must read as one; and each
// method checks its own fields (its `checks`, ../methods/).

import type { FieldCheck } from '../methods/types.ts';
import type { Errors, FieldName, Values } from './fields.ts';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The checks of the fields any method may show. */
const COMMON: Partial<Record<FieldName, FieldCheck>> = {
  email: (value) => EMAIL.test(value),
};

/**
 * What is wrong with each of `fields`, by the method's `checks`; a field missing from the
 * result is fine.
 */
export function validate(
  fields: FieldName[],
  values: Values,
  checks: Partial<Record<FieldName, FieldCheck>>,
): Errors {
  const errors: Errors = {};
  for (const field of fields) {
    const value = (values[field] ?? '').trim();
    const check = checks[field] ?? COMMON[field];
    // true: fine; false: invalid; else the code of what is wrong ('required', 'expired').
    const ok = value ? (check?.(value, values) ?? true) : 'required';
    if (ok !== true) errors[field] = ok || 'invalid';
  }
  return errors;
}
