// `GET /sandbox/overview`: everything the dashboard shows of the state, in one read. The
// provider's own shapes where they exist (checkoutJson, customerJson, instrumentJson,
// deviceJson), plus what only a developer needs: each checkout's status history, its open
// next step, every transaction with its card summary and refunds, and what can be done to it.
// Records hold no card number or CVV, so nothing here can show one.

import type { SandboxContext } from '../context.ts';
import { advanceReader, deviceJson } from '../simulation/readers.ts';
import { checkoutJson, customerJson, instrumentJson, refundable } from '../provider/serialize.ts';
import type { CheckoutRecord, TransactionRecord } from '../state/records.ts';

/** Newest first; a page of thousands of checkouts would help nobody. */
export const OVERVIEW_CHECKOUTS = 100;
const OVERVIEW_READER_CHECKOUTS = 50;

function transactionView(t: TransactionRecord): Record<string, unknown> {
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

/** The challenge or bank page a shopper would be sent to now, openable in a browser. */
function nextStep(c: CheckoutRecord, origin: string): Record<string, unknown> | undefined {
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

function checkoutView(
  ctx: SandboxContext,
  c: CheckoutRecord,
  refundsOf: Map<string, TransactionRecord[]>,
  origin: string,
): Record<string, unknown> {
  const payments = c.transaction_ids
    .map((id) => ctx.store.transactions.get(id))
    .filter((t): t is TransactionRecord => t !== undefined);
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

export function overview(ctx: SandboxContext, origin: string): Record<string, unknown> {
  const { store } = ctx;
  const refundsOf = new Map<string, TransactionRecord[]>();
  for (const t of store.transactions.values()) {
    if (t.refunded_transaction_id === undefined) continue;
    const list = refundsOf.get(t.refunded_transaction_id) ?? [];
    list.push(t);
    refundsOf.set(t.refunded_transaction_id, list);
  }
  const checkouts = [...store.checkouts.values()];
  const instruments = [...store.instruments.values()];
  const readers = [...store.readers.values()];
  for (const r of readers) advanceReader(ctx, r);
  return {
    now: ctx.clock.iso(),
    clock_offset_ms: ctx.clock.offsetMs,
    merchant_code: ctx.config.merchantCode,
    checkouts_total: checkouts.length,
    checkouts: checkouts
      .slice(-OVERVIEW_CHECKOUTS)
      .reverse()
      .map((c) => checkoutView(ctx, c, refundsOf, origin)),
    customers: [...store.customers.values()].reverse().map((c) => ({
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
    devices: [...store.devices.values()].reverse().map((d) => deviceJson(ctx, d)),
    reader_checkouts: [...store.readerCheckouts.values()]
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
