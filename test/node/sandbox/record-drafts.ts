// Records as the store's callers give them (without the ids the store allocates), for the
// suites that work on the store and on data files directly.

import type { Draft } from '../../../src/sandbox/state/store.ts';

export const AT = '2026-03-01T10:00:00.000Z';

export const checkoutDraft = (reference: string): Draft<'checkouts'> => ({
  checkout_reference: reference,
  amount: 10,
  currency: 'EUR',
  merchant_code: 'MSANDBOX1',
  pay_to_email: 'merchant@example.com',
  purpose: 'CHECKOUT',
  date: AT,
  status: 'PENDING',
  transaction_ids: [],
  processed: false,
});

/** A successful card-less payment of that checkout. */
export const paymentDraft = (checkoutId: string): Draft<'transactions'> => ({
  amount: 10,
  currency: 'EUR',
  timestamp: AT,
  updated_at: AT,
  status: 'SUCCESSFUL',
  type: 'PAYMENT',
  payment_type: 'ECOM',
  entry_mode: 'CUSTOMER_ENTRY',
  installments_count: 1,
  merchant_code: 'MSANDBOX1',
  user: 'merchant@example.com',
  checkout_id: checkoutId,
  refunded_amount: 0,
  events: [],
});
