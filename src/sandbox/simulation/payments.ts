// The payment engine behind the checkout routes: creating transactions, settling a checkout
// and tokenizing cards. Routes validate input and choose the path; this module owns the
// state transitions so that the API, the 3DS TermUrl and the bank pages settle identically.

import { randomBytes, randomUUID } from 'node:crypto';
import { isDeclinedAmount } from './cards.ts';
import type { SandboxContext } from '../context.ts';
import type {
  CardSummary,
  CheckoutRecord,
  CheckoutStatus,
  InstrumentRecord,
  PaymentType,
  TransactionRecord,
  TransactionStatus,
} from '../state/records.ts';

const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

function randomCode(length: number): string {
  const bytes = randomBytes(length);
  let out = '';
  for (const b of bytes) out += CODE_ALPHABET[b % CODE_ALPHABET.length];
  return out;
}

/** Transaction codes look like the provider's: `T` + 9 characters. */
export const transactionCode = () => `T${randomCode(9)}`;
export const newId = () => randomUUID();
/** Opaque per-attempt token (3DS MD, bank `tx`). */
export const newToken = () => randomBytes(16).toString('hex');

export interface TransactionInput {
  status: TransactionStatus;
  payment_type: PaymentType;
  entry_mode: 'CUSTOMER_ENTRY' | 'BOLETO';
  installments?: number;
  card?: CardSummary;
}

export function addTransaction(
  ctx: SandboxContext,
  checkout: CheckoutRecord,
  input: TransactionInput,
): TransactionRecord {
  const now = ctx.clock.iso();
  const txn: TransactionRecord = {
    id: newId(),
    transaction_code: transactionCode(),
    internal_id: ctx.store.nextInternalId++,
    amount: checkout.amount,
    currency: checkout.currency,
    timestamp: now,
    updated_at: now,
    status: input.status,
    type: 'PAYMENT',
    payment_type: input.payment_type,
    entry_mode: input.entry_mode,
    installments_count: input.installments ?? 1,
    merchant_code: checkout.merchant_code,
    user: checkout.pay_to_email,
    checkout_id: checkout.id,
    refunded_amount: 0,
    events: [],
  };
  if (input.card) txn.card = input.card;
  if (input.status === 'SUCCESSFUL' && input.card) txn.auth_code = randomAuthCode();
  if (checkout.description !== undefined) txn.product_summary = checkout.description;
  ctx.store.transactions.set(txn.id, txn);
  checkout.transaction_ids.push(txn.id);
  return txn;
}

function randomAuthCode(): string {
  return String(randomBytes(3).readUIntBE(0, 3) % 1_000_000).padStart(6, '0');
}

/** Moves the checkout to a new status and notifies its return_url when the status changed. */
export function setStatus(
  ctx: SandboxContext,
  checkout: CheckoutRecord,
  status: CheckoutStatus,
): void {
  const changed = checkout.status !== status;
  checkout.status = status;
  if (changed) {
    checkout.status_history ??= [];
    checkout.status_history.push({ status, at: ctx.clock.iso() });
  }
  ctx.changed();
  if (changed) ctx.webhooks.checkoutStatusChanged(checkout.return_url, checkout.id);
}

export interface AuthorizeInput {
  card: CardSummary;
  installments: number;
  /** Tokenize the card on success (mandate). */
  saveCard: boolean;
  /** The saved card used, when paying with a token. */
  token?: string;
  /** False when 3DS failed or a technical error happened: the issuer never approves. */
  authenticated: boolean;
}

/**
 * Final card authorisation: the issuer declines the documented amounts whatever the card,
 * and a failed 3DS is a failed payment. Settles the checkout PAID or FAILED.
 */
export function authorizeCard(
  ctx: SandboxContext,
  checkout: CheckoutRecord,
  input: AuthorizeInput,
): void {
  const approved = input.authenticated && !isDeclinedAmount(checkout.amount);
  const txn = addTransaction(ctx, checkout, {
    status: approved ? 'SUCCESSFUL' : 'FAILED',
    payment_type: 'ECOM', // the provider's token example shows ECOM too
    entry_mode: 'CUSTOMER_ENTRY',
    installments: input.installments,
    card: input.card,
  });
  checkout.processed = true;
  if (approved) {
    checkout.transaction_code = txn.transaction_code;
    checkout.transaction_id = txn.id;
    if (input.token) checkout.payment_instrument = { token: input.token };
    if (input.saveCard && checkout.customer_id) {
      const instrument = saveInstrument(
        ctx,
        checkout.customer_id,
        input.card,
        checkout.merchant_code,
      );
      checkout.payment_instrument = { token: instrument.token };
      checkout.mandate = { ...instrument.mandate };
    }
  }
  setStatus(ctx, checkout, approved ? 'PAID' : 'FAILED');
}

/** Settles an APM (bank page) attempt. */
export function settleBank(ctx: SandboxContext, checkout: CheckoutRecord, approved: boolean): void {
  const ok = approved && !isDeclinedAmount(checkout.amount);
  const txn = addTransaction(ctx, checkout, {
    status: ok ? 'SUCCESSFUL' : 'FAILED',
    payment_type: 'ECOM',
    entry_mode: 'CUSTOMER_ENTRY',
  });
  checkout.processed = true;
  if (ok) {
    checkout.transaction_code = txn.transaction_code;
    checkout.transaction_id = txn.id;
  }
  setStatus(ctx, checkout, ok ? 'PAID' : 'FAILED');
}

function saveInstrument(
  ctx: SandboxContext,
  customerId: string,
  card: CardSummary,
  merchantCode: string,
): InstrumentRecord {
  const instrument: InstrumentRecord = {
    token: newId(),
    customer_id: customerId,
    active: true,
    type: 'card',
    card: { ...card },
    mandate: { type: 'recurrent', status: 'active', merchant_code: merchantCode },
    created_at: ctx.clock.iso(),
  };
  ctx.store.instruments.set(instrument.token, instrument);
  return instrument;
}

/** A 47-digit boleto line, derived from the checkout so it is stable across restarts. */
export function boletoBarcode(checkout: CheckoutRecord): string {
  const digits = checkout.id.replace(/\D/g, '') + String(Math.round(checkout.amount * 100));
  return digits.padEnd(47, '0').slice(0, 47);
}
