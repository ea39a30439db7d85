// Customers and their saved cards (payment instruments).
import * as z from 'zod/mini';
import {
  CardSummarySchema,
  MandateResponseSchema,
  maybe,
  type Named,
  PersonalDetailsSchema,
  requiredString,
} from './common.ts';

export const CustomerSchema = z.object({
  customer_id: z.string(),
  personal_details: maybe(PersonalDetailsSchema),
});
export type Customer = z.infer<typeof CustomerSchema>;

export const CustomerCreateBodySchema = z.object({
  customer_id: requiredString,
  personal_details: z.optional(PersonalDetailsSchema),
});
export type CustomerCreateBody = z.infer<typeof CustomerCreateBodySchema>;

/** Only the fields sent overwrite stored values; the rest keep theirs. */
export const CustomerUpdateBodySchema = z.object({
  personal_details: z.optional(PersonalDetailsSchema),
});
export type CustomerUpdateBody = z.infer<typeof CustomerUpdateBodySchema>;

const paymentInstrumentObject = z.object({
  token: z.string(),
  active: maybe(z.boolean()),
  type: maybe(z.string()),
  card: maybe(CardSummarySchema),
  mandate: maybe(MandateResponseSchema),
  created_at: maybe(z.string()),
});
export interface PaymentInstrumentSchema extends Named<typeof paymentInstrumentObject> {}
export const PaymentInstrumentSchema: PaymentInstrumentSchema = paymentInstrumentObject;
export type PaymentInstrument = z.infer<typeof PaymentInstrumentSchema>;

export const PaymentInstrumentListSchema = z.array(PaymentInstrumentSchema);
