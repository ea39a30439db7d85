// Checkouts as the provider returns them, the 202 next step and the payment methods
// offered; request bodies live in checkout-body.ts, each method's own parts in methods/.
import * as z from 'zod/mini';
import { CHECKOUT_STATUSES } from '../domain/checkout.ts';
import {
  MandateResponseSchema,
  maybe,
  must,
  type Named,
  TransactionEmbeddedSchema,
} from './common.ts';
import { BoletoSchema } from './methods/boleto.ts';

const checkoutStatusEnum = z.enum(CHECKOUT_STATUSES);
export interface CheckoutStatusSchema extends Named<typeof checkoutStatusEnum> {}
export const CheckoutStatusSchema: CheckoutStatusSchema = checkoutStatusEnum;
// `payment-widget/schemas` names the type too; its one definition is domain/checkout.ts's.
export type { CheckoutStatus } from '../domain/checkout.ts';

const checkoutPurposeEnum = z.enum(['CHECKOUT', 'SETUP_RECURRING_PAYMENT'], {
  error: must('must be CHECKOUT or SETUP_RECURRING_PAYMENT'),
});
export interface CheckoutPurposeSchema extends Named<typeof checkoutPurposeEnum> {}
export const CheckoutPurposeSchema: CheckoutPurposeSchema = checkoutPurposeEnum;
export type CheckoutPurpose = z.infer<typeof CheckoutPurposeSchema>;

export const CheckoutSchema = z.object({
  id: maybe(z.string()),
  checkout_reference: maybe(z.string()),
  amount: maybe(z.number()),
  currency: maybe(z.string()),
  pay_to_email: maybe(z.string()),
  merchant_code: maybe(z.string()),
  merchant_name: maybe(z.string()),
  merchant_country: maybe(z.string()),
  description: maybe(z.string()),
  return_url: maybe(z.string()),
  redirect_url: maybe(z.string()),
  status: maybe(CheckoutStatusSchema),
  date: maybe(z.string()),
  valid_until: maybe(z.string()),
  customer_id: maybe(z.string()),
  purpose: maybe(CheckoutPurposeSchema),
  mandate: maybe(MandateResponseSchema),
  transactions: maybe(z.array(TransactionEmbeddedSchema)),
  transaction_code: maybe(z.string()),
  transaction_id: maybe(z.string()),
  payment_instrument: maybe(z.object({ token: maybe(z.string()) })),
  boleto: maybe(BoletoSchema),
});
export type Checkout = z.infer<typeof CheckoutSchema>;

/**
 * A checkout as the browser sees it: what the companion handler answers and the widget's
 * events carry. Without `pay_to_email` (the merchant's login) and `return_url` (the webhook
 * address, which an attacker could otherwise hammer).
 */
export type PublicCheckout = Omit<Checkout, 'pay_to_email' | 'return_url'>;

export const NextStepSchema = z.object({
  url: z.string(),
  method: maybe(z.string()),
  redirect_url: maybe(z.string()),
  mechanism: maybe(z.array(z.string())),
  // Form fields for the redirect (3DS: PaReq, MD, TermUrl); each becomes a hidden input.
  payload: maybe(z.record(z.string(), z.string())),
  full: maybe(z.string()),
});
export type NextStep = z.infer<typeof NextStepSchema>;

/** The 202 body of a process request: the end user must act before the checkout settles. */
export const ProcessAcceptedSchema = z.object({ next_step: NextStepSchema });
export type ProcessAccepted = z.infer<typeof ProcessAcceptedSchema>;

/**
 * What a process request may answer. The provider's own examples put APM
 * `next_step` bodies under 200, so the next step is tried first (a checkout
 * would match any object once unknown keys are stripped).
 */
export const CheckoutProcessResponseSchema = z.union([ProcessAcceptedSchema, CheckoutSchema]);
export type CheckoutProcessResponse = z.infer<typeof CheckoutProcessResponseSchema>;

export const PaymentMethodsResponseSchema = z.object({
  available_payment_methods: z.array(z.object({ id: z.string() })),
});
export type PaymentMethodsResponse = z.infer<typeof PaymentMethodsResponseSchema>;
