// Receipts (v1.1): the data a receipt prints for a transaction, built from the transaction
// record and the default merchant. `id` is the transaction id or its transaction code; `mid`
// (the merchant code) is required; `tx_event_id` selects one event (a refund) and the
// receipt then lists only that event and carries its receipt number.
//
// Choices where the seed says "not shown":
//   - Scope: `transactions.history`. A receipt is a view of one transaction, so it needs the
//     same right as retrieving that transaction.
//   - An unknown transaction, a `mid` of another merchant, or an event that is not the
//     transaction's answer 400 `NOT_FOUND`: the status and body of the provider's own example.

import { Hono } from 'hono';
import { json } from '../../http/json.ts';
import type { RouteContext, Routes, SandboxConfig, SandboxEnv } from '../context.ts';
import { formatAmount } from '../defaults/currencies.ts';
import { ApiError, invalid, missing } from '../errors.ts';
import { type Access, allow } from '../middleware/access.ts';
import type { Frozen, TransactionEventRecord, TransactionRecord } from '../state/records.ts';
import { eventJson } from './serialize.ts';

const RECEIPTS: Access = { scopes: ['transactions.history'] };

const receiptNotFound = (message = 'Resource not found') => new ApiError(400, 'NOT_FOUND', message);

const receiptNo = (t: Frozen<TransactionRecord>, e?: Frozen<TransactionEventRecord>) =>
  e === undefined ? String(t.internal_id) : `${t.internal_id}-${e.id}`;

/** The merchant's wall-clock time (ISO without a zone), as a card terminal prints it. */
function localTime(timestamp: string, config: SandboxConfig): string {
  const offset = config.merchant.merchant_profile.address?.timeoffset_details?.offset ?? 0;
  return new Date(Date.parse(timestamp) + offset * 3_600_000).toISOString().slice(0, 19);
}

/** An 8-digit terminal id, stable per merchant. */
function terminalId(merchantCode: string): string {
  let h = 0;
  for (const ch of merchantCode) h = (h * 31 + ch.charCodeAt(0)) % 100_000_000;
  return String(h).padStart(8, '0');
}

function buildReceipt(
  t: Frozen<TransactionRecord>,
  config: SandboxConfig,
  event?: Frozen<TransactionEventRecord>,
): Record<string, unknown> {
  const money = (n: number) => formatAmount(n, t.currency);
  const events = (event ? [event] : t.events).map((e) => ({
    ...eventJson(t, e),
    receipt_no: receiptNo(t, e),
  }));
  const dba = config.merchant.doing_business_as;
  const address = config.merchant.merchant_profile.address ?? {};
  const acquirer: Record<string, string> = {
    tid: terminalId(t.merchant_code),
    return_code: t.status === 'SUCCESSFUL' ? '00' : '05',
    local_time: localTime(t.timestamp, config),
  };
  if (t.auth_code !== undefined) acquirer.authorization_code = t.auth_code;
  return {
    transaction_data: {
      transaction_code: t.transaction_code,
      amount: money(t.amount),
      // Tax is not enabled for the sandbox merchant and tips are not simulated: both zero,
      // as in the transaction itself.
      vat_amount: money(0),
      tip_amount: money(0),
      currency: t.currency,
      timestamp: t.timestamp,
      status: t.status,
      payment_type: t.payment_type,
      entry_mode: t.entry_mode,
      verification_method: 'none',
      ...(t.card && { card: t.card }),
      installments_count: t.installments_count,
      products: [
        {
          name: t.product_summary ?? 'Payment',
          price: t.amount,
          quantity: 1,
          total_price: t.amount,
        },
      ],
      vat_rates: [],
      events,
      receipt_no: receiptNo(t, event),
    },
    merchant_data: {
      merchant_profile: {
        merchant_code: t.merchant_code,
        business_name: dba.business_name ?? config.merchantName,
        email: dba.email ?? config.payToEmail,
        address: {
          address_line1: address.address_line1,
          city: address.city,
          country: address.country,
          country_en_name: address.country_details?.en_name,
          country_native_name: address.country_details?.native_name,
          post_code: address.post_code,
          landline: address.landline,
        },
      },
      locale: config.merchant.merchant_profile.locale,
    },
    // Card-present EMV tags would go here; online payments have none.
    emv_data: {},
    acquirer_data: acquirer,
  };
}

function getReceipt(c: RouteContext): Response {
  const ctx = c.env.sandbox;
  const url = new URL(c.req.url);
  const mid = url.searchParams.get('mid');
  if (mid === null || mid === '') throw missing('mid', 'mid (the merchant code) is required');
  const eventText = url.searchParams.get('tx_event_id');
  let eventId: number | undefined;
  if (eventText !== null) {
    if (!/^\d+$/.test(eventText)) throw invalid('tx_event_id', 'tx_event_id must be an integer');
    eventId = Number(eventText);
  }
  if (mid !== ctx.config.merchantCode) throw receiptNotFound();
  const id = c.req.param('id')!;
  const txn =
    ctx.store.get('transactions', id) ??
    ctx.store.list('transactions').find((t) => t.transaction_code === id);
  if (!txn || txn.merchant_code !== mid) throw receiptNotFound();
  let event: Frozen<TransactionEventRecord> | undefined;
  if (eventId !== undefined) {
    event = txn.events.find((e) => e.id === eventId);
    if (!event) throw receiptNotFound('The transaction has no event with this tx_event_id');
  }
  return json(buildReceipt(txn, ctx.config, event));
}

export const receiptRoutes: Routes = new Hono<SandboxEnv>().get(
  '/v1.1/receipts/:id',
  allow(RECEIPTS),
  getReceipt,
);
