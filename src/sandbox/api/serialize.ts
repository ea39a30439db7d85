// Records -> the provider's JSON shapes. Kept apart from the records so that internal fields
// (pending actions, refund bookkeeping) never leak into a response.

import { minorUnit } from '../../schemas/currencies.ts';
import type { SandboxConfig } from '../context.ts';
import { refundable } from '../simulation/payments.ts';
import type {
  CheckoutRecord,
  CustomerRecord,
  Frozen,
  InstrumentRecord,
  TransactionEventRecord,
  TransactionRecord,
} from '../state/records.ts';
import type { Store } from '../state/store.ts';

function transactionEmbedded(t: Frozen<TransactionRecord>): Record<string, unknown> {
  return {
    id: t.id,
    transaction_code: t.transaction_code,
    amount: t.amount,
    currency: t.currency,
    timestamp: t.timestamp,
    status: t.status,
    payment_type: t.payment_type,
    installments_count: t.installments_count,
    merchant_code: t.merchant_code,
    vat_amount: 0,
    tip_amount: 0,
    entry_mode: t.entry_mode,
    ...(t.auth_code !== undefined && { auth_code: t.auth_code }),
    internal_id: t.internal_id,
  };
}

/** A checkout as the provider answers it (the fields the seed shows; absent ones left out). */
export type CheckoutJson = Pick<
  Frozen<CheckoutRecord>,
  | 'id'
  | 'checkout_reference'
  | 'amount'
  | 'currency'
  | 'pay_to_email'
  | 'merchant_code'
  | 'purpose'
  | 'status'
  | 'date'
  | 'description'
  | 'return_url'
  | 'redirect_url'
  | 'customer_id'
  | 'valid_until'
  | 'transaction_code'
  | 'transaction_id'
  | 'mandate'
  | 'payment_instrument'
  | 'boleto'
> & {
  merchant_name: string;
  merchant_country: string;
  transactions: Record<string, unknown>[];
};

export function checkoutJson(
  c: Frozen<CheckoutRecord>,
  store: Store,
  config: SandboxConfig,
): CheckoutJson {
  const transactions = c.transaction_ids
    .map((id) => store.get('transactions', id))
    .filter((t) => t !== undefined)
    .map(transactionEmbedded);
  const out: CheckoutJson = {
    id: c.id,
    checkout_reference: c.checkout_reference,
    amount: c.amount,
    currency: c.currency,
    pay_to_email: c.pay_to_email,
    merchant_code: c.merchant_code,
    merchant_name: config.merchantName,
    merchant_country: config.country,
    purpose: c.purpose,
    status: c.status,
    date: c.date,
    transactions,
  };
  const optional = {
    description: c.description,
    return_url: c.return_url,
    redirect_url: c.redirect_url,
    customer_id: c.customer_id,
    valid_until: c.valid_until,
    transaction_code: c.transaction_code,
    transaction_id: c.transaction_id,
    mandate: c.mandate,
    payment_instrument: c.payment_instrument,
    boleto: c.boleto,
  };
  // A loop, not spreads: this runs on every create and retrieve.
  for (const [k, v] of Object.entries(optional)) {
    if (v !== undefined) (out as Record<string, unknown>)[k] = v;
  }
  return out;
}

export function customerJson(c: Frozen<CustomerRecord>): Frozen<CustomerRecord> {
  return c.personal_details === undefined
    ? { customer_id: c.customer_id }
    : { customer_id: c.customer_id, personal_details: c.personal_details };
}

/** A saved card as the provider lists it: the record without its customer. */
export type InstrumentJson = Omit<Frozen<InstrumentRecord>, 'customer_id'>;

export function instrumentJson(i: Frozen<InstrumentRecord>): InstrumentJson {
  return {
    token: i.token,
    active: i.active,
    type: i.type,
    card: i.card,
    mandate: i.mandate,
    created_at: i.created_at,
  };
}

/** The history's derived status; a PENDING payment has none yet (the enum has no PENDING). */
export function simpleStatus(t: Frozen<TransactionRecord>): string | undefined {
  if (t.type === 'PAYMENT' && t.status === 'SUCCESSFUL' && refundable(t) === 0) return 'REFUNDED';
  if (t.status === 'PENDING') return undefined;
  return t.status;
}

export function transactionFull(
  t: Frozen<TransactionRecord>,
  origin: string,
): Record<string, unknown> {
  const links: Record<string, unknown>[] = [];
  const max = refundable(t);
  if (max > 0) {
    links.push({
      rel: 'refund',
      href: `${origin}/v0.1/me/refund/${encodeURIComponent(t.id)}`,
      type: 'application/json',
      // One minor unit of the currency: 1 yen, 0.01 euro, 0.001 dinar.
      min_amount: 10 ** -minorUnit(t.currency),
      max_amount: max,
    });
  }
  return {
    ...transactionEmbedded(t),
    product_summary: t.product_summary,
    payouts_total: 1,
    payouts_received: 0,
    payout_plan: 'SINGLE_PAYMENT',
    username: t.user,
    simple_payment_type: t.entry_mode === 'BOLETO' ? undefined : 'CC_CUSTOMER_ENTERED',
    verification_method: 'none',
    ...(t.card && { card: t.card }),
    local_time: t.timestamp,
    payout_type: 'BANK_ACCOUNT',
    products: [],
    vat_rates: [],
    transaction_events: t.events.map((e) => ({
      id: e.id,
      event_type: e.type,
      status: e.status,
      amount: e.amount,
      date: e.timestamp.slice(0, 10),
      timestamp: e.timestamp,
    })),
    simple_status: simpleStatus(t),
    links,
    events: t.events.map((e) => ({
      ...eventJson(t, e),
      fee_amount: 0,
      deducted_amount: 0,
      deducted_fee_amount: 0,
    })),
    tax_enabled: false,
    ...(t.client_transaction_id !== undefined && {
      client_transaction_id: t.client_transaction_id,
    }),
  };
}

/** A transaction's event (a refund, a chargeback) as `events` and receipts list it. */
export function eventJson(t: Frozen<TransactionRecord>, e: Frozen<TransactionEventRecord>) {
  return {
    id: e.id,
    transaction_id: t.id,
    type: e.type,
    status: e.status,
    amount: e.amount,
    timestamp: e.timestamp,
  };
}

export function historyItem(t: Frozen<TransactionRecord>): Record<string, unknown> {
  return {
    id: t.id,
    transaction_id: t.id,
    transaction_code: t.transaction_code,
    amount: t.amount,
    currency: t.currency,
    timestamp: t.timestamp,
    status: t.status,
    payment_type: t.payment_type,
    installments_count: t.installments_count,
    ...(t.product_summary !== undefined && { product_summary: t.product_summary }),
    payouts_total: 1,
    payouts_received: 0,
    payout_plan: 'SINGLE_PAYMENT',
    ...(t.client_transaction_id !== undefined && {
      client_transaction_id: t.client_transaction_id,
    }),
    user: t.user,
    type: t.type,
    ...(t.card && { card_type: t.card.type }),
  };
}
