// Payouts received by the merchant. Server-side only.
import * as z from 'zod/mini';
import { maybe, type Named } from './common.ts';

const payoutObject = z.object({
  id: maybe(z.int()),
  amount: maybe(z.number()),
  currency: maybe(z.string()),
  date: maybe(z.string()),
  fee: maybe(z.number()),
  reference: maybe(z.string()),
  status: maybe(z.enum(['SUCCESSFUL', 'FAILED'])),
  transaction_code: maybe(z.string()),
  type: maybe(
    z.enum([
      'PAYOUT',
      'CHARGE_BACK_DEDUCTION',
      'REFUND_DEDUCTION',
      'DD_RETURN_DEDUCTION',
      'BALANCE_DEDUCTION',
    ]),
  ),
});
export interface PayoutSchema extends Named<typeof payoutObject> {}
export const PayoutSchema: PayoutSchema = payoutObject;
export type Payout = z.infer<typeof PayoutSchema>;

export const PayoutListSchema = z.array(PayoutSchema);
