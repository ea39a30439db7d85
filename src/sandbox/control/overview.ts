// `GET /sandbox/overview`: everything the dashboard shows of the state, in one read. The
// provider's own shapes where they exist (checkoutJson, customerJson, instrumentJson,
// deviceJson), plus what only a developer needs: each checkout's status history, its open
// next step, every transaction with its card summary and refunds, and what can be done to it.
// Records hold no card number or CVV, so nothing here can show one.
//
// The types below are the answer's: the dashboard (browser code) imports them, type only,
// instead of spelling the shapes out again.

import type { CheckoutStatus } from '../../domain/checkout.ts';
import type { PaymentMethodId } from '../../schemas/index.ts';
import {
  type CheckoutJson,
  checkoutJson,
  customerJson,
  type InstrumentJson,
  instrumentJson,
} from '../api/serialize.ts';
import type { SandboxContext } from '../context.ts';
import { refundable } from '../simulation/payments.ts';
import { advanceReader, type DeviceView, deviceJson } from '../simulation/readers.ts';
import type {
  CheckoutRecord,
  CustomerRecord,
  Frozen,
  ReaderCheckoutRecord,
  ReaderRecord,
  TransactionRecord,
} from '../state/records.ts';

export type { DeviceView };

/** Newest first; a page of thousands of checkouts would help nobody. */
const OVERVIEW_CHECKOUTS = 100;
const OVERVIEW_READER_CHECKOUTS = 50;

export type TransactionView = Pick<
  Frozen<TransactionRecord>,
  | 'id'
  | 'transaction_code'
  | 'type'
  | 'status'
  | 'payment_type'
  | 'amount'
  | 'currency'
  | 'timestamp'
  | 'card'
  | 'refunded_amount'
  | 'events'
> & { refundable: number };

/** The challenge or bank page a shopper would be sent to now, openable in a browser. */
export interface NextStepView {
  kind: '3ds' | PaymentMethodId;
  url: string;
}

export type OverviewCheckout = Omit<CheckoutJson, 'transactions'> & {
  /** Payments, each followed by its refunds. */
  transactions: TransactionView[];
  status_history: readonly { readonly status: CheckoutStatus; readonly at: string }[];
  next_step?: NextStepView;
  actions: { expire: boolean; settle: boolean };
};

export type CustomerView = Frozen<CustomerRecord> & { instruments: InstrumentJson[] };

export type ReaderView = Pick<
  Frozen<ReaderRecord>,
  'id' | 'name' | 'status' | 'device_identifier' | 'created_at' | 'updated_at'
>;

export interface ReaderCheckoutView {
  client_transaction_id: string;
  reader_id: string;
  status: ReaderCheckoutRecord['status'];
  failure?: ReaderCheckoutRecord['failure'];
  total_amount: { value: number; currency: string; minor_unit: number };
  created_at: string;
  start_by: string;
  transaction_id?: string;
}

export interface Overview {
  now: string;
  clock_offset_ms: number;
  merchant_code: string;
  checkouts_total: number;
  checkouts: OverviewCheckout[];
  customers: CustomerView[];
  readers: ReaderView[];
  devices: DeviceView[];
  reader_checkouts: ReaderCheckoutView[];
}

function transactionView(t: Frozen<TransactionRecord>): TransactionView {
  return {
    id: t.id,
    transaction_code: t.transaction_code,
    type: t.type,
    status: t.status,
    payment_type: t.payment_type,
    amount: t.amount,
    currency: t.currency,
    timestamp: t.timestamp,
    ...(t.card !== undefined && { card: t.card }),
    refunded_amount: t.refunded_amount,
    refundable: refundable(t),
    events: t.events,
  };
}

function nextStep(c: Frozen<CheckoutRecord>, origin: string): NextStepView | undefined {
  const pending = c.pending;
  if (pending === undefined || pending.settled) return undefined;
  const id = encodeURIComponent(c.id);
  if (pending.kind === 'challenge') {
    return { kind: '3ds', url: `${origin}/sandbox/3ds/${id}?MD=${pending.md}` };
  }
  return {
    kind: pending.method,
    url: `${origin}/sandbox/bank/${pending.method}/${id}?tx=${pending.tx}`,
  };
}

function overviewCheckout(
  ctx: SandboxContext,
  c: Frozen<CheckoutRecord>,
  refundsOf: Map<string, Frozen<TransactionRecord>[]>,
  origin: string,
): OverviewCheckout {
  const payments = c.transaction_ids
    .map((id) => ctx.store.get('transactions', id))
    .filter((t) => t !== undefined);
  const transactions = payments.flatMap((t) => [t, ...(refundsOf.get(t.id) ?? [])]);
  const pendingBoleto = payments.some((t) => t.payment_type === 'BOLETO' && t.status === 'PENDING');
  const step = nextStep(c, origin);
  return {
    ...checkoutJson(c, ctx.store, ctx.config),
    transactions: transactions.map(transactionView),
    status_history: c.status_history ?? [{ status: c.status, at: c.date }],
    ...(step !== undefined && { next_step: step }),
    actions: {
      expire: !c.processed && c.status !== 'EXPIRED',
      settle: pendingBoleto && c.status === 'PENDING',
    },
  };
}

export function overview(ctx: SandboxContext, origin: string): Overview {
  const { store } = ctx;
  const refundsOf = new Map<string, Frozen<TransactionRecord>[]>();
  for (const t of store.values('transactions')) {
    if (t.refunded_transaction_id === undefined) continue;
    const list = refundsOf.get(t.refunded_transaction_id) ?? [];
    list.push(t);
    refundsOf.set(t.refunded_transaction_id, list);
  }
  const checkouts = store.list('checkouts');
  const instruments = store.list('instruments');
  const readers = store.list('readers');
  for (const r of readers) advanceReader(ctx, r);
  return {
    now: ctx.clock.iso(),
    clock_offset_ms: ctx.clock.offsetMs,
    merchant_code: ctx.config.merchantCode,
    checkouts_total: checkouts.length,
    checkouts: checkouts
      .slice(-OVERVIEW_CHECKOUTS)
      .reverse()
      .map((c) => overviewCheckout(ctx, c, refundsOf, origin)),
    customers: store
      .list('customers')
      .reverse()
      .map((c) => ({
        ...customerJson(c),
        instruments: instruments.filter((i) => i.customer_id === c.customer_id).map(instrumentJson),
      })),
    readers: readers.reverse().map((r) => ({
      id: r.id,
      name: r.name,
      status: r.status,
      device_identifier: r.device_identifier,
      created_at: r.created_at,
      updated_at: r.updated_at,
    })),
    devices: store
      .list('devices')
      .reverse()
      .map((d) => deviceJson(ctx, d)),
    reader_checkouts: store
      .list('readerCheckouts')
      .slice(-OVERVIEW_READER_CHECKOUTS)
      .reverse()
      .map((c) => ({
        client_transaction_id: c.id,
        reader_id: c.reader_id,
        status: c.status,
        ...(c.failure !== undefined && { failure: c.failure }),
        total_amount: { value: c.value, currency: c.currency, minor_unit: c.minor_unit },
        created_at: c.created_at,
        start_by: c.start_by,
        ...(c.transaction_id !== undefined && { transaction_id: c.transaction_id }),
      })),
  };
}
