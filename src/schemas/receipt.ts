// Receipt data of a transaction. Server-side only. Amounts are strings here,
// unlike in checkouts and transactions: that is how the seed describes them.
import * as z from 'zod/mini';
import { maybe } from './common.ts';

export const ReceiptSchema = z.object({
  transaction_data: maybe(
    z.object({
      transaction_code: maybe(z.string()),
      amount: maybe(z.string()),
      vat_amount: maybe(z.string()),
      tip_amount: maybe(z.string()),
      currency: maybe(z.string()),
      timestamp: maybe(z.string()),
      status: maybe(z.string()),
      payment_type: maybe(z.string()),
      entry_mode: maybe(z.string()),
      verification_method: maybe(z.string()),
      card: maybe(z.object({ last_4_digits: maybe(z.string()), type: maybe(z.string()) })),
      installments_count: maybe(z.int()),
      products: maybe(
        z.array(
          z.object({
            name: maybe(z.string()),
            description: maybe(z.string()),
            price: maybe(z.number()),
            quantity: maybe(z.int()),
            total_price: maybe(z.number()),
          }),
        ),
      ),
      vat_rates: maybe(
        z.array(
          z.object({
            gross: maybe(z.number()),
            net: maybe(z.number()),
            rate: maybe(z.number()),
            vat: maybe(z.number()),
          }),
        ),
      ),
      events: maybe(
        z.array(
          z.object({
            id: maybe(z.int()),
            transaction_id: maybe(z.string()),
            type: maybe(z.string()),
            status: maybe(z.string()),
            amount: maybe(z.number()),
            timestamp: maybe(z.string()),
            receipt_no: maybe(z.string()),
          }),
        ),
      ),
      receipt_no: maybe(z.string()),
    }),
  ),
  merchant_data: maybe(
    z.object({
      merchant_profile: maybe(
        z.object({
          merchant_code: maybe(z.string()),
          business_name: maybe(z.string()),
          email: maybe(z.string()),
          address: maybe(
            z.object({
              address_line1: maybe(z.string()),
              city: maybe(z.string()),
              country: maybe(z.string()),
              country_en_name: maybe(z.string()),
              country_native_name: maybe(z.string()),
              post_code: maybe(z.string()),
              landline: maybe(z.string()),
            }),
          ),
        }),
      ),
      locale: maybe(z.string()),
    }),
  ),
  // Its fields are "not shown" in the seed.
  emv_data: maybe(z.record(z.string(), z.unknown())),
  acquirer_data: maybe(
    z.object({
      tid: maybe(z.string()),
      authorization_code: maybe(z.string()),
      return_code: maybe(z.string()),
      local_time: maybe(z.string()),
    }),
  ),
});
export type Receipt = z.infer<typeof ReceiptSchema>;
