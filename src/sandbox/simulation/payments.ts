// The payment engine: every transaction is made here, and every transition that settles a
// checkout, refunds or charges back a payment. Routes validate input and choose the path; this
// module owns the changes, so that the API, the 3DS TermUrl, the bank pages, the boleto control
// route and the card readers settle identically. Each function's writes are one change of the
// store (`transact`): the data file keeps all of them or none.

import type { CheckoutStatus } from '../../domain/checkout.ts';
import { roundToMinorUnit } from '../../schemas/currencies.ts';
import type { SandboxContext } from '../context.ts';
import { randomBytes, toHex } from '../state/ids.ts';
import type { CheckoutRecord, Frozen, KeptCard, TransactionRecord } from '../state/records.ts';
import { isDeclinedAmount } from './cards.ts';

/** Opaque per-attempt token (3DS MD, bank `tx`). */
export const newToken = () => toHex(randomBytes(16));

/** What a new transaction says; the store gives it its ids, and the rest has defaults. */
export type TransactionInput = Pick<
  TransactionRecord,
  'amount' | 'currency' | 'merchant_code' | 'user' | 'status' | 'payment_type' | 'entry_mode'
> &
  Partial<
    Pick<
      TransactionRecord,
      | 'type'
      | 'card'
      | 'checkout_id'
      | 'product_summary'
      | 'client_transaction_id'
      | 'refunded_transaction_id'
      | 'installments_count'
    >
  >;

function randomAuthCode(): string {
  const [a = 0, b = 0, c = 0] = randomBytes(3);
  return String(((a << 16) | (b << 8) | c) % 1_000_000).padStart(6, '0');
}

/** The one place a transaction is made: a payment (online or on a reader) or a refund. */
export function createTransaction(
  ctx: SandboxContext,
  input: TransactionInput,
): Frozen<TransactionRecord> {
  const now = ctx.clock.iso();
  const type = input.type ?? 'PAYMENT';
  return ctx.store.insert('transactions', {
    installments_count: 1,
    ...input,
    type,
    timestamp: now,
    updated_at: now,
    refunded_amount: 0,
    events: [],
    // An issuer's approval code: only an approved card payment has one.
    ...(type === 'PAYMENT' &&
      input.status === 'SUCCESSFUL' &&
      input.card !== undefined && { auth_code: randomAuthCode() }),
  });
}

/** A payment of this checkout, listed in its `transactions`. */
function addPayment(
  ctx: SandboxContext,
  checkout: Frozen<CheckoutRecord>,
  input: Pick<TransactionInput, 'status' | 'payment_type' | 'entry_mode' | 'card'> & {
    installments?: number;
  },
): Frozen<TransactionRecord> {
  const txn = createTransaction(ctx, {
    amount: checkout.amount,
    currency: checkout.currency,
    merchant_code: checkout.merchant_code,
    user: checkout.pay_to_email,
    checkout_id: checkout.id,
    status: input.status,
    payment_type: input.payment_type,
    entry_mode: input.entry_mode,
    installments_count: input.installments ?? 1,
    ...(input.card && { card: { ...input.card } }),
    ...(checkout.description !== undefined && { product_summary: checkout.description }),
  });
  ctx.store.update('checkouts', checkout.id, (c) => {
    c.transaction_ids.push(txn.id);
  });
  return txn;
}

/** Moves the checkout to a new status and notifies its return_url when the status changed. */
export function setStatus(
  ctx: SandboxContext,
  checkout: Frozen<CheckoutRecord>,
  status: CheckoutStatus,
  change: (c: CheckoutRecord) => void = () => {},
): void {
  const changed = checkout.status !== status;
  ctx.store.transact(() => {
    ctx.store.update('checkouts', checkout.id, (c) => {
      change(c);
      c.status = status;
      if (changed) {
        c.status_history ??= [];
        c.status_history.push({ status, at: ctx.clock.iso() });
      }
    });
    if (changed) ctx.webhooks.checkoutStatusChanged(checkout.return_url, checkout.id);
  });
}

export interface AuthorizeInput {
  card: KeptCard;
  installments: number;
  /** Tokenize the card on success (mandate). */
  saveCard: boolean;
  /** The saved card used, when paying with a token. */
  token?: string;
  /** False when 3DS failed: the issuer never approves. */
  authenticated: boolean;
  /**
   * What the outcome control decided in place of the issuer: `approve` whatever the amount,
   * `decline`, or `technical_error` (3DS could not run: the issuer is never asked, so the
   * checkout fails with no transaction). Undefined: the issuer's rule (the amount).
   */
  verdict?: 'approve' | 'decline' | 'technical_error' | undefined;
  /**
   * The open challenge or bank page: `replace` drops it (a new attempt from the API), `settle`
   * marks the challenge it finishes settled, so its page, opened or answered again, says so.
   */
  pending: 'replace' | 'settle';
}

/**
 * Final card authorisation: the issuer declines the documented amounts whatever the card,
 * and a failed 3DS is a failed payment. Settles the checkout PAID or FAILED.
 */
export function authorizeCard(
  ctx: SandboxContext,
  checkout: Frozen<CheckoutRecord>,
  input: AuthorizeInput,
): void {
  if (input.verdict === 'technical_error') {
    failWithoutPayment(ctx, checkout, input.pending);
    return;
  }
  const approved =
    input.authenticated &&
    (input.verdict === undefined
      ? !isDeclinedAmount(checkout.amount, checkout.currency)
      : input.verdict === 'approve');
  ctx.store.transact(() => {
    const txn = addPayment(ctx, checkout, {
      status: approved ? 'SUCCESSFUL' : 'FAILED',
      payment_type: 'ECOM', // the provider's token example shows ECOM too
      entry_mode: 'CUSTOMER_ENTRY',
      installments: input.installments,
      card: input.card,
    });
    const saved =
      approved && input.saveCard && checkout.customer_id !== undefined
        ? ctx.store.insert('instruments', {
            customer_id: checkout.customer_id,
            active: true,
            type: 'card',
            card: { ...input.card },
            mandate: { type: 'recurrent', status: 'active', merchant_code: checkout.merchant_code },
            created_at: ctx.clock.iso(),
          })
        : undefined;
    setStatus(ctx, checkout, approved ? 'PAID' : 'FAILED', (c) => {
      c.processed = true;
      if (input.pending === 'replace') delete c.pending;
      else if (c.pending) c.pending.settled = true;
      if (!approved) return;
      c.transaction_code = txn.transaction_code;
      c.transaction_id = txn.id;
      if (input.token) c.payment_instrument = { token: input.token };
      if (saved) {
        c.payment_instrument = { token: saved.token };
        c.mandate = { ...saved.mandate };
      }
    });
  });
}

/**
 * A 3DS technical error: authentication could not run, so the issuer was never asked and
 * there is no payment to record. The checkout fails with no transaction, which is how the
 * widget tells the shopper that the bank could not be reached rather than that it declined.
 */
function failWithoutPayment(
  ctx: SandboxContext,
  checkout: Frozen<CheckoutRecord>,
  pending: AuthorizeInput['pending'],
): void {
  ctx.store.transact(() => {
    setStatus(ctx, checkout, 'FAILED', (c) => {
      c.processed = true;
      if (pending === 'replace') delete c.pending;
      else if (c.pending) c.pending.settled = true;
    });
  });
}

/**
 * Settles an APM (bank page) attempt as the shopper left it at the bank: the declined amounts
 * are a card issuer's, so "declined, then pay another way" works at them.
 */
export function settleBank(
  ctx: SandboxContext,
  checkout: Frozen<CheckoutRecord>,
  ok: boolean,
): void {
  ctx.store.transact(() => {
    const txn = addPayment(ctx, checkout, {
      status: ok ? 'SUCCESSFUL' : 'FAILED',
      payment_type: 'ECOM',
      entry_mode: 'CUSTOMER_ENTRY',
    });
    setStatus(ctx, checkout, ok ? 'PAID' : 'FAILED', (c) => {
      c.processed = true;
      if (c.pending) c.pending.settled = true;
      if (ok) {
        c.transaction_code = txn.transaction_code;
        c.transaction_id = txn.id;
      }
    });
  });
}

/** Issues a boleto: a PENDING BOLETO payment; the checkout stays PENDING but is processed. */
export function issueBoleto(
  ctx: SandboxContext,
  checkout: Frozen<CheckoutRecord>,
  url: string,
): void {
  ctx.store.transact(() => {
    addPayment(ctx, checkout, { status: 'PENDING', payment_type: 'BOLETO', entry_mode: 'BOLETO' });
    ctx.store.update('checkouts', checkout.id, (c) => {
      delete c.pending;
      c.processed = true;
      c.boleto = { barcode: boletoBarcode(c), url };
    });
  });
}

/** Pays or fails a checkout's pending boleto payment (`POST /sandbox/checkouts/{id}/settle`). */
export function settleBoleto(
  ctx: SandboxContext,
  checkout: Frozen<CheckoutRecord>,
  pending: Frozen<TransactionRecord>,
  paid: boolean,
): void {
  ctx.store.transact(() => {
    ctx.store.update('transactions', pending.id, (t) => {
      t.status = paid ? 'SUCCESSFUL' : 'FAILED';
      t.updated_at = ctx.clock.iso();
    });
    setStatus(ctx, checkout, paid ? 'PAID' : 'FAILED', (c) => {
      if (!paid) return;
      c.transaction_code = pending.transaction_code;
      c.transaction_id = pending.id;
    });
  });
}

/** Remaining refundable amount, rounded to the currency's minor unit to keep float sums honest. */
export function refundable(t: Frozen<TransactionRecord>): number {
  if (t.type !== 'PAYMENT' || t.status !== 'SUCCESSFUL') return 0;
  return roundToMinorUnit(t.amount - t.refunded_amount, t.currency);
}

/**
 * Refunds `amount` of a payment: the payment gains a REFUND event, and the refund is a
 * transaction of its own (type REFUND). The caller has checked the amount against `refundable`.
 */
export function refund(ctx: SandboxContext, txn: Frozen<TransactionRecord>, amount: number): void {
  const now = ctx.clock.iso();
  ctx.store.transact(() => {
    ctx.store.update('transactions', txn.id, (t) => {
      t.refunded_amount = roundToMinorUnit(t.refunded_amount + amount, t.currency);
      t.updated_at = now;
      t.events.push({
        id: ctx.store.allocateEventId(),
        type: 'REFUND',
        status: 'REFUNDED',
        amount,
        timestamp: now,
      });
    });
    createTransaction(ctx, {
      type: 'REFUND',
      amount,
      currency: txn.currency,
      status: 'SUCCESSFUL',
      payment_type: txn.payment_type,
      entry_mode: txn.entry_mode,
      merchant_code: txn.merchant_code,
      user: txn.user,
      refunded_transaction_id: txn.id,
      ...(txn.card && { card: { ...txn.card } }),
      ...(txn.product_summary !== undefined && { product_summary: txn.product_summary }),
    });
  });
}

/** Files a chargeback of `amount` against a successful payment. */
export function chargeBack(
  ctx: SandboxContext,
  txn: Frozen<TransactionRecord>,
  amount: number,
): Frozen<TransactionRecord> {
  const now = ctx.clock.iso();
  return ctx.store.update('transactions', txn.id, (t) => {
    t.events.push({
      id: ctx.store.allocateEventId(),
      type: 'CHARGE_BACK',
      status: 'SUCCESSFUL',
      amount,
      timestamp: now,
    });
    t.updated_at = now;
  });
}

/** A 47-digit boleto line, derived from the checkout so it is stable across restarts. */
function boletoBarcode(checkout: Frozen<CheckoutRecord>): string {
  const digits = checkout.id.replace(/\D/g, '') + String(Math.round(checkout.amount * 100));
  return digits.padEnd(47, '0').slice(0, 47);
}
