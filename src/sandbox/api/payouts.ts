// Payouts (v1.0 by merchant code, and the deprecated v0.1 alias), generated on every request
// from the transactions in the store, so they always agree with what the merchant sold:
//   - each SUCCESSFUL payment is paid out the same day (the sandbox settles at once, so a
//     test sees its payout without waiting): type PAYOUT, amount = net of the fee, fee =
//     PAYOUT_FEE_RATE of the gross, rounded to the currency's minor unit;
//   - each REFUND event on a payment is a REFUND_DEDUCTION of its amount (negative), the day
//     of the refund; each CHARGE_BACK event a CHARGE_BACK_DEDUCTION. The fee is not returned.
// Ids are stable integers derived from the transaction's internal id, and `reference` names
// the day's payout batch, as a bank statement line would.
//
// Query (not shown in the seed; the OpenAPI gives the enums): start_date and end_date are
// required ISO dates (YYYY-MM-DD, inclusive, UTC days); order asc (default) or desc by date;
// limit a positive integer; format json (default) or csv.
//
// A chargeback's deduction is tested by filing one: POST /sandbox/transactions/{id}/chargeback
// (control/payments.ts).

import { Hono } from 'hono';
import { json } from '../../http/json.ts';
import { roundToMinorUnit } from '../../schemas/currencies.ts';
import type { RouteContext, Routes, SandboxConfig, SandboxEnv } from '../context.ts';
import { invalid, missing } from '../errors.ts';
import { allow, PROFILE_READ } from '../middleware/access.ts';
import { deprecated } from '../middleware/deprecation.ts';
import type { Store } from '../state/store.ts';
import { requireMerchant } from './merchant.ts';

/** The sandbox's card fee: 1.39 %, a typical European card rate. */
const PAYOUT_FEE_RATE = 0.0139;

interface PayoutItem {
  id: number;
  amount: number;
  currency: string;
  date: string;
  fee: number;
  reference: string;
  status: 'SUCCESSFUL' | 'FAILED';
  transaction_code: string;
  type: 'PAYOUT' | 'CHARGE_BACK_DEDUCTION' | 'REFUND_DEDUCTION';
}

const round = roundToMinorUnit;

function generatePayouts(store: Store, config: SandboxConfig): PayoutItem[] {
  const out: PayoutItem[] = [];
  const reference = (day: string) => `${config.merchantCode}-${day.replaceAll('-', '')}`;
  for (const t of store.values('transactions')) {
    if (t.type !== 'PAYMENT' || t.status !== 'SUCCESSFUL') continue;
    if (t.merchant_code !== config.merchantCode) continue;
    const day = t.timestamp.slice(0, 10);
    const fee = round(t.amount * PAYOUT_FEE_RATE, t.currency);
    out.push({
      id: t.internal_id * 1000,
      amount: round(t.amount - fee, t.currency),
      currency: t.currency,
      date: day,
      fee,
      reference: reference(day),
      status: 'SUCCESSFUL',
      transaction_code: t.transaction_code,
      type: 'PAYOUT',
    });
    for (const e of t.events) {
      if (e.type !== 'REFUND' && e.type !== 'CHARGE_BACK') continue;
      const eventDay = e.timestamp.slice(0, 10);
      out.push({
        id: t.internal_id * 1000 + (e.id % 1000),
        amount: -round(e.amount, t.currency),
        currency: t.currency,
        date: eventDay,
        fee: 0,
        reference: reference(eventDay),
        status: 'SUCCESSFUL',
        transaction_code: t.transaction_code,
        type: e.type === 'REFUND' ? 'REFUND_DEDUCTION' : 'CHARGE_BACK_DEDUCTION',
      });
    }
  }
  return out;
}

function isoDate(url: URL, name: string): string {
  const value = url.searchParams.get(name);
  if (value === null || value === '') throw missing(name, `${name} is required (YYYY-MM-DD)`);
  // Round-tripping through Date catches 2026-02-30 (rolls over) and 2026-13-01 (NaN).
  const time = Date.parse(`${value}T00:00:00Z`);
  const ok =
    /^\d{4}-\d{2}-\d{2}$/.test(value) &&
    !Number.isNaN(time) &&
    new Date(time).toISOString().startsWith(value);
  if (!ok) throw invalid(name, `${name} must be a date in the form YYYY-MM-DD`);
  return value;
}

const CSV_FIELDS = [
  'id',
  'date',
  'type',
  'status',
  'amount',
  'fee',
  'currency',
  'reference',
  'transaction_code',
] as const;

function toCsv(items: readonly PayoutItem[]): string {
  const lines = [CSV_FIELDS.join(',')];
  for (const item of items) lines.push(CSV_FIELDS.map((f) => String(item[f])).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

function listPayouts(c: RouteContext): Response {
  const ctx = c.env.sandbox;
  const url = new URL(c.req.url);
  const start = isoDate(url, 'start_date');
  const end = isoDate(url, 'end_date');
  if (end < start) throw invalid('end_date', 'end_date must not be before start_date');
  const order = url.searchParams.get('order') ?? 'asc';
  if (order !== 'asc' && order !== 'desc') throw invalid('order', 'order must be asc or desc');
  const format = url.searchParams.get('format') ?? 'json';
  if (format !== 'json' && format !== 'csv') throw invalid('format', 'format must be json or csv');
  const limitText = url.searchParams.get('limit');
  let limit = Number.POSITIVE_INFINITY;
  if (limitText !== null) {
    limit = Number(limitText);
    if (!/^\d+$/.test(limitText) || limit < 1) {
      throw invalid('limit', 'limit must be a positive integer');
    }
  }
  const sign = order === 'asc' ? 1 : -1;
  const items = generatePayouts(ctx.store, ctx.config)
    .filter((p) => p.date >= start && p.date <= end)
    .sort((a, b) => sign * (a.date.localeCompare(b.date) || a.id - b.id))
    .slice(0, limit);
  if (format === 'csv') {
    return new Response(toCsv(items), {
      headers: {
        'content-type': 'text/csv; charset=utf-8',
        'content-disposition': `attachment; filename="payouts-${start}-${end}.csv"`,
        'cache-control': 'no-store',
      },
    });
  }
  return json(items);
}

export const payoutRoutes: Routes = new Hono<SandboxEnv>()
  .get('/v1.0/merchants/:merchant_code/payouts', allow(PROFILE_READ), (c) => {
    requireMerchant(c);
    return listPayouts(c);
  })
  .get(
    '/v0.1/me/financials/payouts',
    deprecated('/v1.0/merchants/:merchant_code/payouts'),
    allow(PROFILE_READ),
    listPayouts,
  );
