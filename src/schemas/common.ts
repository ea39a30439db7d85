// Building blocks shared by the checkout schemas (checkout, its request bodies)
// and those of the merchant's account (customers, transactions, payouts, ...).
import * as z from 'zod/mini';
import { CARD_NETWORKS } from '../shared/card-networks.ts';

/**
 * Responses are lenient: the seed says fields that do not apply are "omitted
 * or null", so every response field accepts both.
 */
export function maybe<T extends z.ZodMiniType>(schema: T): Maybe<T> {
  return z.optional(z.nullable(schema));
}

/**
 * What maybe() makes: a field that may be absent or null. An interface, so that the
 * declarations name it (`Maybe<z.ZodMiniString<string>>`) rather than spell it out at each
 * of the 800 response fields.
 */
export interface Maybe<T extends z.ZodMiniType> extends z.ZodMiniOptional<z.ZodMiniNullable<T>> {}

/**
 * A schema's own type under its own name: `export interface XSchema extends Named<typeof x>`
 * makes the declarations of the schemas that hold it say `XSchema` instead of spelling it
 * out again at each use (the package's declarations were 22 kB larger so).
 */
export type Named<T> = T;

const cardNetworkEnum = z.enum(CARD_NETWORKS, {
  error: must('must be a card network (AMEX, CUP, DINERS, ..., VISA_VPAY, UNKNOWN)'),
});
export interface CardNetworkSchema extends Named<typeof cardNetworkEnum> {}
export const CardNetworkSchema: CardNetworkSchema = cardNetworkEnum;
// `payment-widget/schemas` names the type too; its one definition is beside the list.
export type { CardNetwork } from '../shared/card-networks.ts';

/**
 * Error text for a request field. An absent value reads "is required" so that
 * describeIssue can report the provider's MISSING code rather than INVALID;
 * zod's own issues do not say whether the input was there.
 */
export function must(message: string) {
  return (issue: { input?: unknown }) => (issue.input === undefined ? 'is required' : message);
}

/** A required, non-empty request string. */
export const requiredString = z
  .string({ error: must('must be a string') })
  .check(z.minLength(1, { error: 'must not be empty' }));

/** ISO 4217 in requests; the supported list is "not shown", so only the form is checked. */
export const CurrencyCodeSchema = z
  .string({ error: must('must be a three-letter ISO 4217 code') })
  .check(z.regex(/^[A-Z]{3}$/, { error: 'must be a three-letter ISO 4217 code' }));

const cardSummaryObject = z.object({
  last_4_digits: maybe(z.string()),
  type: maybe(CardNetworkSchema),
});
/** Card as the provider returns it: never the number, only the last four digits and network. */
export interface CardSummarySchema extends Named<typeof cardSummaryObject> {}
export const CardSummarySchema: CardSummarySchema = cardSummaryObject;
export type CardSummary = z.infer<typeof CardSummarySchema>;

const mandateResponseObject = z.object({
  type: maybe(z.string()),
  status: maybe(z.string()),
  merchant_code: maybe(z.string()),
});
export interface MandateResponseSchema extends Named<typeof mandateResponseObject> {}
export const MandateResponseSchema: MandateResponseSchema = mandateResponseObject;
export type MandateResponse = z.infer<typeof MandateResponseSchema>;

const addressObject = z.object({
  city: maybe(z.string()),
  country: maybe(
    z
      .string({ error: must('must be a string') })
      .check(z.regex(/^[A-Z]{2}$/, { error: 'must be an ISO 3166-1 alpha-2 code' })),
  ),
  line_1: maybe(z.string()),
  line_2: maybe(z.string()),
  postal_code: maybe(z.string()),
  state: maybe(z.string()),
});
/** Customer address (not the merchant address object, which has other field names). */
export interface AddressSchema extends Named<typeof addressObject> {}
export const AddressSchema: AddressSchema = addressObject;
export type Address = z.infer<typeof AddressSchema>;

const personalDetailsObject = z.object({
  first_name: maybe(z.string()),
  last_name: maybe(z.string()),
  email: maybe(z.email({ error: must('must be an email address') })),
  phone: maybe(z.string()),
  birth_date: maybe(
    z
      .string({ error: must('must be a string') })
      .check(z.regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'must be a date (YYYY-MM-DD)' })),
  ),
  tax_id: maybe(z.string().check(z.maxLength(255, { error: 'must be at most 255 characters' }))),
  address: maybe(AddressSchema),
});
export interface PersonalDetailsSchema extends Named<typeof personalDetailsObject> {}
export const PersonalDetailsSchema: PersonalDetailsSchema = personalDetailsObject;
export type PersonalDetails = z.infer<typeof PersonalDetailsSchema>;

const transactionStatusEnum = z.enum(['SUCCESSFUL', 'CANCELLED', 'FAILED', 'PENDING']);
export interface TransactionStatusSchema extends Named<typeof transactionStatusEnum> {}
export const TransactionStatusSchema: TransactionStatusSchema = transactionStatusEnum;
export type TransactionStatus = z.infer<typeof TransactionStatusSchema>;

const transactionPaymentTypeEnum = z.enum(['ECOM', 'RECURRING', 'BOLETO']);
export interface TransactionPaymentTypeSchema extends Named<typeof transactionPaymentTypeEnum> {}
export const TransactionPaymentTypeSchema: TransactionPaymentTypeSchema =
  transactionPaymentTypeEnum;
export type TransactionPaymentType = z.infer<typeof TransactionPaymentTypeSchema>;

const transactionEmbeddedObject = z.object({
  id: maybe(z.string()),
  transaction_code: maybe(z.string()),
  amount: maybe(z.number()),
  currency: maybe(z.string()),
  timestamp: maybe(z.string()),
  status: maybe(TransactionStatusSchema),
  payment_type: maybe(TransactionPaymentTypeSchema),
  installments_count: maybe(z.int()),
  merchant_code: maybe(z.string()),
  vat_amount: maybe(z.number()),
  tip_amount: maybe(z.number()),
  entry_mode: maybe(z.string()),
  auth_code: maybe(z.string()),
  internal_id: maybe(z.int()),
});
/** The transaction as embedded in a checkout's `transactions`. */
export interface TransactionEmbeddedSchema extends Named<typeof transactionEmbeddedObject> {}
export const TransactionEmbeddedSchema: TransactionEmbeddedSchema = transactionEmbeddedObject;
export type TransactionEmbedded = z.infer<typeof TransactionEmbeddedSchema>;
