// What a payment method is to the widget, in its two halves: what the form's first paint
// draws of it (`MethodForm`, each method's `form.ts`, listed in ./index.ts) and what paying
// with it takes (`MethodPay`, each method's `pay.ts`, listed in ./pay.ts), which the pay part
// brings after that paint. Types only: either half imports them without the other.

import type { CardNetwork } from '../../shared/card-networks.ts';
import type { FieldName, Shown, Values } from '../form/fields.ts';

/** What the form draws for a method, known before the pay part loads. */
export interface MethodForm {
  /**
   * The fields it shows, in screen (and focus) order, for the optional fields the merchant
   * turned on; `saved`: the shopper chose one of their saved cards.
   */
  fields(shown: Shown, saved: boolean): FieldName[];
  /**
   * Paid on the bank's own page, which sends the shopper back to the checkout's
   * `redirect_url`: a checkout without one does not offer it.
   */
  redirect?: true;
}

/** What the shopper entered, as paying reads it. */
export interface BodyInput {
  values: Values;
  /** Pay with a saved card instead of the fields. */
  saved?: { token: string; customerId: string } | undefined;
  /**
   * Save the card (the shopper ticked "save this card", or the checkout is made to save it):
   * ask the provider for a recurring mandate.
   */
  saveCard: boolean;
}

/** Who pays, in the process body's `personal_details`. */
export interface PayerDetails {
  first_name?: string;
  last_name?: string;
  email?: string;
  tax_id?: string;
  address?: { line_1: string; city: string; state: string; postal_code: string; country: string };
}

/** The process body (`PUT {endpoint}/checkouts/:id`), as the provider takes it. */
export interface ProcessBody {
  payment_type: string;
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

/**
 * Whether a field's trimmed, non-empty text is right (`values`: every field on screen): true,
 * else false, or 'expired' where that is what is wrong (an expiry date before this month).
 */
export type FieldCheck = (value: string, values: Values) => boolean | 'expired';

/**
 * The next step a method's answer may call for: a 3-D Secure challenge (in an iframe or as
 * a full page, as the element's `challenge` says), the bank's own page, or a voucher to pay
 * later (src/next-step/).
 */
export type ExpectedStep = 'challenge' | 'bank' | 'voucher';

/** What paying with a method takes: the pay part's. */
export interface MethodPay {
  /** What is wrong with its own fields, beyond being empty: a field named here is checked. */
  checks: Partial<Record<FieldName, FieldCheck>>;
  /** The process body, besides `payment_type`, from what the shopper entered. */
  body(input: BodyInput, shown: Shown): Omit<ProcessBody, 'payment_type'>;
  /** The next step its answer may call for. */
  step: ExpectedStep;
  /** The card network typed so far (card only); the mark and the CVV's length follow it. */
  network?(values: Values): CardNetwork | undefined;
}
