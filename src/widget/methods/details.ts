// What the shopper typed, as the process body carries it: a field's text, and who pays
// (`personal_details`) for the methods that ask for it. The pay part's.
import type { Values } from '../form/fields.ts';
import type { PayerDetails } from './types.ts';

/** A field's text as sent: without the spaces around it. */
export const typed = (value: string | undefined): string => (value ?? '').trim();

/** Who pays, as the bank's methods and boleto send it. */
export function payer(v: Values): PayerDetails {
  return { first_name: typed(v.firstName), last_name: typed(v.lastName), email: typed(v.email) };
}
