// The payment methods the widget offers, in the order it offers them: the one list the
// widget reads (the form's choice, the methods it keeps of the handler's, the page's
// `payment-methods`, the console's word for an unknown one). Each is what the form's first
// paint draws of it (its `form.ts`); what paying with it takes is in ./pay.ts, the pay
// part's list of the same methods. The sandbox lists the methods it simulates
// (src/sandbox/methods/index.ts) and the schemas those the provider takes
// (src/schemas/methods/index.ts): test/node/layout/methods.test.ts holds the three to the same.
import { bank } from './bank/form.ts';
import { boleto } from './boleto/form.ts';
import { card } from './card/form.ts';
import type { MethodForm } from './types.ts';

export const METHODS = {
  card,
  ideal: bank,
  bancontact: bank,
  blik: bank,
  boleto,
} as const satisfies Record<string, MethodForm>;

export type PaymentMethodId = keyof typeof METHODS;

/** The methods' ids, in the order the widget offers them. */
export const METHOD_IDS = Object.keys(METHODS) as PaymentMethodId[];

export function isPaymentMethodId(value: unknown): value is PaymentMethodId {
  return (METHOD_IDS as unknown[]).includes(value);
}
