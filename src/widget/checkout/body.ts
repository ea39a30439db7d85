// The process body (PUT /checkouts/:id) from what the user entered: a pure
// function so every shape can be checked against the schema without a browser.

import { checkExpiry, digitsOnly, last4 } from '../../card/index.ts';
import type { PaymentMethodId } from '../../domain/checkout.ts';
import type { Shown, Values } from '../form/fields.ts';
import { networkOf } from '../form/rules.ts';

interface BodyInput {
  method: PaymentMethodId;
  values: Values;
  /** Pay with a saved card instead of the fields. */
  saved?: { token: string; customerId: string };
  /** The user ticked "save this card": ask the provider for a recurring mandate. */
  saveCard: boolean;
  userAgent: string;
  now?: Date;
}

/** Who pays, in the process body's `personal_details` (alternative methods, and the email). */
interface PayerDetails {
  first_name?: string;
  last_name?: string;
  email?: string;
  tax_id?: string;
  address?: { line_1: string; city: string; state: string; postal_code: string; country: string };
}

interface ProcessBody {
  payment_type: PaymentMethodId;
  card?: {
    name: string;
    number: string;
    expiry_month: string;
    expiry_year: string;
    cvv: string;
    last_4_digits: string;
    type: string;
    zip_code?: string;
  };
  token?: string;
  customer_id?: string;
  installments?: number;
  mandate?: { type: 'recurrent'; user_agent: string };
  personal_details?: PayerDetails;
}

const text = (v: string | undefined): string => (v ?? '').trim();

export function buildProcessBody(input: BodyInput, shown: Shown): ProcessBody {
  const { values: v } = input;
  if (input.method !== 'card') {
    const details: PayerDetails = {
      first_name: text(v.firstName),
      last_name: text(v.lastName),
      email: text(v.email),
    };
    if (input.method === 'boleto') {
      details.tax_id = digitsOnly(text(v.taxId));
      // Boleto exists only in Brazil, so the country is not asked for.
      details.address = {
        line_1: text(v.line1),
        city: text(v.city),
        state: text(v.state),
        postal_code: text(v.postalCode),
        country: 'BR',
      };
    }
    return { payment_type: input.method, personal_details: details };
  }

  const body: ProcessBody = { payment_type: 'card' };
  if (input.saved) {
    body.token = input.saved.token;
    body.customer_id = input.saved.customerId;
  } else {
    const number = digitsOnly(text(v.number));
    const expiry = checkExpiry(text(v.expiry), input.now ?? new Date());
    body.card = {
      name: text(v.name),
      number,
      expiry_month: expiry.month ?? '',
      expiry_year: expiry.year ?? '',
      cvv: digitsOnly(text(v.cvv)),
      last_4_digits: last4(number),
      // The card module names networks as the provider does (VISA, MASTERCARD, ...).
      type: networkOf(number) ?? 'UNKNOWN',
    };
    // The provider takes five digits; a ZIP+4 keeps its first five.
    if (shown.showZipCode) body.card.zip_code = digitsOnly(text(v.zip)).slice(0, 5);
    if (input.saveCard) body.mandate = { type: 'recurrent', user_agent: input.userAgent };
  }
  if (shown.showInstallments && v.installments) body.installments = Number(v.installments);
  if (shown.showEmail && v.email) body.personal_details = { email: text(v.email) };
  return body;
}
