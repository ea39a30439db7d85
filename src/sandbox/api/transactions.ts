// Transactions: retrieve (v2.1 and the deprecated v0.1), history with filters and `links`
// paging, and refunds in full or in part.
//
// Refunds follow what the reference spec shows: 204 without a body; the payment keeps
// status SUCCESSFUL and gains a REFUND event (status REFUNDED) in `events` and
// `transaction_events`; `simple_status` becomes REFUNDED once nothing is left; the refund
// itself is a transaction of type REFUND in the history. Refusals: an unknown transaction
// 404, a transaction that cannot be refunded (not a successful payment, or fully refunded)
// 409 CONFLICT, more than what remains 400 INVALID param amount.
//
// History paging: refs are the transactions' internal ids (monotonic, like event ids), so
// `oldest_ref`/`newest_ref` slice the ordered list without gaps or repeats; the `next` link
// carries the ref of the page's last item.

import { Hono } from 'hono';
import { empty, json } from '../../http/json.ts';
import { RefundBodySchema } from '../../schemas/index.ts';
import {
  baseUrl,
  type RouteContext,
  type Routes,
  type SandboxContext,
  type SandboxEnv,
} from '../context.ts';
import {
  ApiError,
  invalid,
  missing,
  notFound,
  readApiJson,
  refuseOffMinorUnit,
} from '../errors.ts';
import { allow, PAYMENTS, TRANSACTIONS_HISTORY } from '../middleware/access.ts';
import { capBody } from '../middleware/body-limit.ts';
import { deprecated } from '../middleware/deprecation.ts';
import { refundable, refund as refundPayment } from '../simulation/payments.ts';
import type { Frozen, TransactionRecord } from '../state/records.ts';
import { parse } from '../validate.ts';
import { historyItem, simpleStatus, transactionFull } from './serialize.ts';

function checkMerchant(ctx: SandboxContext, code: string | undefined): void {
  if (code !== undefined && code !== ctx.config.merchantCode) throw notFound('Merchant not found');
}

type Txn = Frozen<TransactionRecord>;

const LOOKUP_KEYS = {
  id: (t: Txn, v: string) => t.id === v,
  internal_id: (t: Txn, v: string) => String(t.internal_id) === v,
  transaction_code: (t: Txn, v: string) => t.transaction_code === v,
  // Reader (affiliate) transactions carry foreign ids; online payments have none yet.
  foreign_transaction_id: (t: Txn, v: string) => t.client_transaction_id === v,
  client_transaction_id: (t: Txn, v: string) => t.client_transaction_id === v,
} as const;
type LookupKey = keyof typeof LOOKUP_KEYS;

function retrieveWith(keys: readonly LookupKey[]) {
  return (c: RouteContext): Response => {
    const ctx = c.env.sandbox;
    const url = new URL(c.req.url);
    checkMerchant(ctx, c.req.param('merchant_code'));
    const given = keys.filter((k) => url.searchParams.has(k));
    if (given.length === 0) {
      throw missing(keys[0]!, `one of ${keys.join(', ')} is required to identify the transaction`);
    }
    const found = ctx.store
      .list('transactions')
      .find((t) => given.every((k) => LOOKUP_KEYS[k](t, url.searchParams.get(k)!)));
    if (!found) throw notFound('Transaction not found');
    return json(transactionFull(found, baseUrl(c)));
  };
}

const HISTORY_STATUSES = ['SUCCESSFUL', 'CANCELLED', 'FAILED', 'REFUNDED', 'CHARGE_BACK'];
const HISTORY_PAYMENT_TYPES = [
  'CASH',
  'POS',
  'ECOM',
  'RECURRING',
  'BALANCE',
  'MOTO',
  'BOLETO',
  'UNKNOWN',
];
const HISTORY_TYPES = ['PAYMENT', 'REFUND', 'CHARGE_BACK'];
const DEFAULT_LIMIT = 10;
const MAX_LIMIT = 1000;

/** Array query parameters arrive as `statuses=A&statuses=B` or `statuses[]=A`. */
function listParam(url: URL, name: string, allowed?: readonly string[]): string[] | undefined {
  const values = [
    ...url.searchParams.getAll(name),
    ...url.searchParams.getAll(`${name}[]`),
  ].flatMap((v) => v.split(',').filter((s) => s !== ''));
  if (values.length === 0) return undefined;
  if (allowed) {
    const bad = values.find((v) => !allowed.includes(v));
    if (bad !== undefined) throw invalid(name, `${name} must be among ${allowed.join(', ')}`);
  }
  return values;
}

function timeParam(url: URL, name: string): number | undefined {
  const v = url.searchParams.get(name);
  if (v === null) return undefined;
  const t = Date.parse(v);
  if (Number.isNaN(t)) throw invalid(name, `${name} must be an ISO 8601 timestamp`);
  return t;
}

function refParam(url: URL, name: string): number | undefined {
  const v = url.searchParams.get(name);
  if (v === null) return undefined;
  if (!/^\d+$/.test(v)) throw invalid(name, `${name} must be a transaction reference`);
  return Number(v);
}

/** The status the history filters on: a fully refunded payment counts as REFUNDED. */
const finalStatus = (t: Txn) => (simpleStatus(t) === 'REFUNDED' ? 'REFUNDED' : t.status);

function history(c: RouteContext): Response {
  const ctx = c.env.sandbox;
  const url = new URL(c.req.url);
  checkMerchant(ctx, c.req.param('merchant_code'));
  const limitText = url.searchParams.get('limit');
  const limit = limitText === null ? DEFAULT_LIMIT : Number(limitText);
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
    throw invalid('limit', `limit must be a whole number from 1 to ${MAX_LIMIT}`);
  }
  const order = url.searchParams.get('order') ?? 'ascending';
  if (order !== 'ascending' && order !== 'descending') {
    throw invalid('order', 'order must be ascending or descending');
  }
  const code = url.searchParams.get('transaction_code');
  const users = listParam(url, 'users');
  const statuses = listParam(url, 'statuses', HISTORY_STATUSES);
  const paymentTypes = listParam(url, 'payment_types', HISTORY_PAYMENT_TYPES);
  const types = listParam(url, 'types', HISTORY_TYPES);
  const changesSince = timeParam(url, 'changes_since');
  const newestTime = timeParam(url, 'newest_time');
  const oldestTime = timeParam(url, 'oldest_time');
  const newestRef = refParam(url, 'newest_ref');
  const oldestRef = refParam(url, 'oldest_ref');

  const matching = ctx.store
    .list('transactions')
    .filter(
      (t) =>
        (code === null || t.transaction_code === code) &&
        (!users || users.includes(t.user)) &&
        (!statuses || statuses.includes(finalStatus(t))) &&
        (!paymentTypes || paymentTypes.includes(t.payment_type)) &&
        (!types || types.includes(t.type)) &&
        (changesSince === undefined || Date.parse(t.updated_at) >= changesSince) &&
        // A ref supersedes the time bound on the same side, as the spec says.
        (newestRef !== undefined
          ? t.internal_id < newestRef
          : newestTime === undefined || Date.parse(t.timestamp) < newestTime) &&
        (oldestRef !== undefined
          ? t.internal_id > oldestRef
          : oldestTime === undefined || Date.parse(t.timestamp) >= oldestTime),
    )
    .sort((a, b) =>
      order === 'ascending' ? a.internal_id - b.internal_id : b.internal_id - a.internal_id,
    );
  const page = matching.slice(0, limit);
  const links: Record<string, string>[] = [];
  const last = page.at(-1);
  if (last && matching.length > limit) {
    const next = new URL(c.env.sandbox.basePath + url.pathname, url.origin);
    next.search = url.search;
    if (order === 'ascending') {
      next.searchParams.delete('oldest_time');
      next.searchParams.set('oldest_ref', String(last.internal_id));
    } else {
      next.searchParams.delete('newest_time');
      next.searchParams.set('newest_ref', String(last.internal_id));
    }
    links.push({ rel: 'next', href: next.href, type: 'application/json' });
  }
  return json({ items: page.map(historyItem), links });
}

async function refund(c: RouteContext): Promise<Response> {
  const ctx = c.env.sandbox;
  const body = parse(RefundBodySchema, await readApiJson(c.req.raw));
  const txn = ctx.store.get('transactions', c.req.param('txn_id')!);
  if (!txn) throw notFound('Transaction not found');
  const remaining = refundable(txn);
  if (remaining <= 0) {
    throw new ApiError(409, 'CONFLICT', 'The transaction is not refundable in its current state');
  }
  const amount = body.amount ?? remaining;
  refuseOffMinorUnit(amount, txn.currency);
  if (amount > remaining) {
    throw invalid('amount', `amount must not exceed the refundable ${remaining}`);
  }
  refundPayment(ctx, txn, amount);
  return empty(204);
}

const V21_KEYS: readonly LookupKey[] = [
  'id',
  'internal_id',
  'transaction_code',
  'foreign_transaction_id',
  'client_transaction_id',
];
const V01_KEYS: readonly LookupKey[] = ['id', 'internal_id', 'transaction_code'];

const v21 = '/v2.1/merchants/:merchant_code/transactions';

export const transactionRoutes: Routes = new Hono<SandboxEnv>()
  .get(v21, allow(TRANSACTIONS_HISTORY), retrieveWith(V21_KEYS))
  .get(`${v21}/history`, allow(TRANSACTIONS_HISTORY), history)
  // Deprecated forms, kept because existing integrations still call them.
  .get(
    '/v0.1/me/transactions',
    deprecated(v21),
    allow(TRANSACTIONS_HISTORY),
    retrieveWith(V01_KEYS),
  )
  .get(
    '/v0.1/me/transactions/history',
    deprecated(`${v21}/history`),
    allow(TRANSACTIONS_HISTORY),
    history,
  )
  .post('/v0.1/me/refund/:txn_id', allow(PAYMENTS), capBody, refund);
