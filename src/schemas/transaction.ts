// Transactions as the retrieve and history endpoints return them, and the
// refund body. Server-side only.
import * as z from 'zod/mini';
import {
  CardNetworkSchema,
  CardSummarySchema,
  maybe,
  type Named,
  TransactionEmbeddedSchema,
  TransactionPaymentTypeSchema,
  TransactionStatusSchema,
} from './common.ts';

export { type TransactionEmbedded, TransactionEmbeddedSchema } from './common.ts';

const payoutPlanEnum = z.enum(['SINGLE_PAYMENT', 'TRUE_INSTALLMENT', 'ACCELERATED_INSTALLMENT']);
export interface PayoutPlanSchema extends Named<typeof payoutPlanEnum> {}
export const PayoutPlanSchema: PayoutPlanSchema = payoutPlanEnum;

const simpleStatusEnum = z.enum([
  'SUCCESSFUL',
  'PAID_OUT',
  'CANCEL_FAILED',
  'CANCELLED',
  'CHARGEBACK',
  'FAILED',
  'REFUND_FAILED',
  'REFUNDED',
  'NON_COLLECTION',
]);
export interface SimpleStatusSchema extends Named<typeof simpleStatusEnum> {}
export const SimpleStatusSchema: SimpleStatusSchema = simpleStatusEnum;

const linkObject = z.object({
  rel: maybe(z.string()),
  href: maybe(z.string()),
  type: maybe(z.string()),
  // Refund links carry the refundable range.
  min_amount: maybe(z.number()),
  max_amount: maybe(z.number()),
});
export interface LinkSchema extends Named<typeof linkObject> {}
export const LinkSchema: LinkSchema = linkObject;
export type Link = z.infer<typeof LinkSchema>;

const productObject = z.object({
  name: maybe(z.string()),
  price: maybe(z.number()),
  vat_rate: maybe(z.number()),
  single_vat_amount: maybe(z.number()),
  price_with_vat: maybe(z.number()),
  vat_amount: maybe(z.number()),
  quantity: maybe(z.number()),
  total_price: maybe(z.number()),
  total_with_vat: maybe(z.number()),
});
export interface ProductSchema extends Named<typeof productObject> {}
export const ProductSchema: ProductSchema = productObject;

const transactionEventObject = z.object({
  id: maybe(z.int()),
  event_type: maybe(z.string()),
  status: maybe(z.string()),
  amount: maybe(z.number()),
  due_date: maybe(z.string()),
  date: maybe(z.string()),
  installment_number: maybe(z.int()),
  timestamp: maybe(z.string()),
});
export interface TransactionEventSchema extends Named<typeof transactionEventObject> {}
export const TransactionEventSchema: TransactionEventSchema = transactionEventObject;

const eventObject = z.object({
  id: maybe(z.int()),
  transaction_id: maybe(z.string()),
  type: maybe(z.string()),
  status: maybe(z.string()),
  amount: maybe(z.number()),
  timestamp: maybe(z.string()),
  fee_amount: maybe(z.number()),
  installment_number: maybe(z.int()),
  deducted_amount: maybe(z.number()),
  deducted_fee_amount: maybe(z.number()),
});
export interface EventSchema extends Named<typeof eventObject> {}
export const EventSchema: EventSchema = eventObject;

const historyFields = {
  product_summary: maybe(z.string()),
  payouts_total: maybe(z.int()),
  payouts_received: maybe(z.int()),
  payout_plan: maybe(PayoutPlanSchema),
};

export const TransactionFullSchema = z.extend(TransactionEmbeddedSchema, {
  ...historyFields,
  username: maybe(z.string()),
  lat: maybe(z.number()),
  lon: maybe(z.number()),
  horizontal_accuracy: maybe(z.number()),
  simple_payment_type: maybe(z.string()),
  verification_method: maybe(z.string()),
  card: maybe(CardSummarySchema),
  local_time: maybe(z.string()),
  payout_type: maybe(z.string()),
  products: maybe(z.array(ProductSchema)),
  // Items' fields are "not shown" in the seed.
  vat_rates: maybe(z.array(z.unknown())),
  transaction_events: maybe(z.array(TransactionEventSchema)),
  simple_status: maybe(SimpleStatusSchema),
  links: maybe(z.array(LinkSchema)),
  events: maybe(z.array(EventSchema)),
  location: maybe(
    z.object({
      lat: maybe(z.number()),
      lon: maybe(z.number()),
      horizontal_accuracy: maybe(z.number()),
    }),
  ),
  tax_enabled: maybe(z.boolean()),
});
export type TransactionFull = z.infer<typeof TransactionFullSchema>;

const transactionHistoryItemObject = z.object({
  id: maybe(z.string()),
  transaction_code: maybe(z.string()),
  amount: maybe(z.number()),
  currency: maybe(z.string()),
  timestamp: maybe(z.string()),
  status: maybe(TransactionStatusSchema),
  payment_type: maybe(TransactionPaymentTypeSchema),
  installments_count: maybe(z.int()),
  ...historyFields,
  transaction_id: maybe(z.string()),
  client_transaction_id: maybe(z.string()),
  user: maybe(z.string()),
  type: maybe(z.enum(['PAYMENT', 'REFUND', 'CHARGE_BACK'])),
  card_type: maybe(CardNetworkSchema),
});
export interface TransactionHistoryItemSchema extends Named<typeof transactionHistoryItemObject> {}
export const TransactionHistoryItemSchema: TransactionHistoryItemSchema =
  transactionHistoryItemObject;
export type TransactionHistoryItem = z.infer<typeof TransactionHistoryItemSchema>;

export const TransactionHistoryResponseSchema = z.object({
  items: z.array(TransactionHistoryItemSchema),
  links: maybe(z.array(LinkSchema)),
});
export type TransactionHistoryResponse = z.infer<typeof TransactionHistoryResponseSchema>;

/** Without an amount the whole transaction is refunded. */
export const RefundBodySchema = z.object({
  amount: z.optional(
    z.number({ error: 'must be a number' }).check(z.positive({ error: 'must be greater than 0' })),
  ),
});
export type RefundBody = z.infer<typeof RefundBodySchema>;
