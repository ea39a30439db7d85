/**
 * A typed client of the provider API: every endpoint of the seed, grouped by
 * area, answers validated with the shared schemas. Each endpoint is a few
 * declarative lines over `transport.ts`; the payment side (checkouts,
 * customers, transactions) is here, the merchant's account in `account.ts`.
 * Each answer is typed by its schema's named type, so editors and the
 * published declarations show `Checkout`, not the expanded object.
 *
 * Safety properties, all enforced in `transport.ts`:
 * - the key travels only in the `Authorization` header (never in a URL, error
 *   or log), and only to an https base URL or a loopback host;
 * - every call has a timeout; idempotent GETs are retried with jittered
 *   exponential backoff on network errors, timeouts, 429 and 5xx;
 * - nothing that changes state is retried blindly (see `checkouts.process`).
 */
import * as z from 'zod/mini';
import {
  type Checkout,
  type CheckoutCreateBody,
  type CheckoutProcessBody,
  CheckoutProcessResponseSchema,
  CheckoutSchema,
  type Customer,
  type CustomerCreateBody,
  CustomerSchema,
  type CustomerUpdateBody,
  type NextStep,
  type PaymentInstrument,
  PaymentInstrumentListSchema,
  type PaymentMethodsResponse,
  PaymentMethodsResponseSchema,
  type RefundBody,
  type TransactionFull,
  TransactionFullSchema,
  type TransactionHistoryResponse,
  TransactionHistoryResponseSchema,
} from '../../schemas/index.ts';
import type { CallContext } from '../types.ts';
import { accountApi } from './account.ts';
import { ProviderError } from './errors.ts';
import {
  asQuery,
  createTransport,
  type Get,
  seg,
  type Transport,
  type TransportOptions,
} from './transport.ts';

export type ProviderClientOptions = TransportOptions;

/** The outcome of processing a checkout. */
export type ProcessResult =
  /** Settled, or waiting without user action (boleto); `recovered` when learned by re-reading after a lost answer. */
  | { kind: 'checkout'; checkout: Checkout; recovered: boolean }
  /** The end user must act first (3DS challenge, bank page). */
  | { kind: 'next_step'; next_step: NextStep };

/** Identifies one transaction; the provider needs at least one of these. */
export interface TransactionLookup {
  id?: string;
  internal_id?: string;
  transaction_code?: string;
  foreign_transaction_id?: string;
  client_transaction_id?: string;
}

export interface TransactionHistoryQuery {
  transaction_code?: string;
  order?: 'ascending' | 'descending';
  limit?: number;
  users?: string[];
  statuses?: string[];
  payment_types?: string[];
  types?: string[];
  changes_since?: string;
  newest_time?: string;
  newest_ref?: string;
  oldest_time?: string;
  oldest_ref?: string;
}

const CheckoutListSchema = z.array(CheckoutSchema);

/** Whether a lost process answer may have charged: the checkout moved or has a transaction. */
function wasProcessed(checkout: Checkout): boolean {
  return checkout.status !== 'PENDING' || (checkout.transactions?.length ?? 0) > 0;
}

/** Every area of the API, over one transport. */
export type ProviderClient = ReturnType<typeof paymentApi> & ReturnType<typeof accountApi>;

/**
 * A client of the provider's REST API with the merchant's secret key, for what a server does
 * beside the handler (refunds, customers, the transaction history). Each answer is checked
 * against the provider's schema; idempotent calls are retried after a network error, 429 or
 * 5xx, as `options` say.
 */
export function createProviderClient(options: ProviderClientOptions): ProviderClient {
  const t = createTransport(options);
  const get: Get = async (schema, path, q, at) =>
    (await t.call({ method: 'GET', path, query: q, schema, requestId: at?.requestId })).data;
  return { ...paymentApi(t, get), ...accountApi(t, get) };
}

/** The payment side: checkouts, customers and their saved cards, transactions. */
function paymentApi(t: Transport, get: Get) {
  return {
    checkouts: checkoutsApi(t, get),
    customers: customersApi(t, get),
    transactions: transactionsApi(t, get),
  };
}

/** `checkouts.process`: see its doc comment there. */
async function processCheckout(
  t: Transport,
  get: Get,
  id: string,
  body: CheckoutProcessBody,
  at: CallContext | undefined,
): Promise<ProcessResult> {
  const path = `/v0.1/checkouts/${seg(id)}`;
  try {
    const { data } = await t.call({
      method: 'PUT',
      path,
      body,
      schema: CheckoutProcessResponseSchema,
      idempotent: false,
      requestId: at?.requestId,
    });
    // The provider's own examples answer some APM next steps with 200, so
    // the body decides, not the status.
    if ('next_step' in data) return { kind: 'next_step', next_step: data.next_step };
    return { kind: 'checkout', checkout: data, recovered: false };
  } catch (error) {
    // Nothing sent (connection refused, no such host): the checkout is untouched, and the
    // error says so as it is (PROVIDER_UNREACHABLE, retryable); no read-back is needed.
    const lost =
      error instanceof ProviderError &&
      error.sent &&
      (error.kind === 'timeout' || error.kind === 'network' || error.status >= 500);
    if (!lost) throw error;
    let checkout: Checkout;
    try {
      checkout = await get(CheckoutSchema, path, undefined, at);
    } catch {
      throw new ProviderError({
        kind: error.kind,
        status: error.status,
        errorCode: 'PROCESS_OUTCOME_UNKNOWN',
        message: `PUT ${path}: the answer was lost and the checkout could not be read back; confirm it before trying again`,
        retryable: false,
      });
    }
    if (wasProcessed(checkout)) return { kind: 'checkout', checkout, recovered: true };
    throw new ProviderError({
      kind: error.kind,
      status: error.status,
      errorCode: error.errorCode,
      message: `${error.message}; the checkout is untouched, so processing again is safe`,
      param: error.param,
      retryable: true,
    });
  }
}

function checkoutsApi(t: Transport, get: Get) {
  return {
    /** Lists checkouts, optionally only the one with `checkout_reference`. */
    list: (filter: { checkout_reference?: string } = {}, at?: CallContext): Promise<Checkout[]> =>
      get(CheckoutListSchema, '/v0.1/checkouts', asQuery(filter), at),

    /** Creates a PENDING checkout (201). */
    create: async (body: CheckoutCreateBody, at?: CallContext): Promise<Checkout> =>
      (
        await t.call({
          method: 'POST',
          path: '/v0.1/checkouts',
          body,
          schema: CheckoutSchema,
          requestId: at?.requestId,
        })
      ).data,

    get: (id: string, at?: CallContext): Promise<Checkout> =>
      get(CheckoutSchema, `/v0.1/checkouts/${seg(id)}`, undefined, at),

    /**
     * Processes (charges) a checkout. Never retried: a repeated charge is
     * worse than an error. When the answer is lost (timeout, network error,
     * 5xx) the checkout is read back: if it left PENDING or carries a
     * transaction, that checkout is returned with `recovered: true`; if it is
     * untouched, a `ProviderError` with `retryable: true` says a new attempt
     * is safe. If even the read fails, the error has code
     * `PROCESS_OUTCOME_UNKNOWN` and `retryable: false`: confirm later with `get`. A call
     * that failed before anything was sent (connection refused, no such host) is none of
     * these: it rejects with `PROVIDER_UNREACHABLE`, retryable, as every other call does.
     */
    process: (id: string, body: CheckoutProcessBody, at?: CallContext): Promise<ProcessResult> =>
      processCheckout(t, get, id, body, at),

    /** Deactivates an unprocessed checkout (status EXPIRED); a processed one is refused (409). */
    deactivate: async (id: string): Promise<Checkout> =>
      (
        await t.call({
          method: 'DELETE',
          path: `/v0.1/checkouts/${seg(id)}`,
          schema: CheckoutSchema,
          idempotent: true,
        })
      ).data,

    /** The methods the merchant accepts, optionally for one amount and currency. */
    paymentMethods: (
      merchantCode: string,
      filter: { amount?: number; currency?: string } = {},
      at?: CallContext,
    ): Promise<PaymentMethodsResponse> =>
      get(
        PaymentMethodsResponseSchema,
        `/v0.1/merchants/${seg(merchantCode)}/payment-methods`,
        asQuery(filter),
        at,
      ),
  };
}

function customersApi(t: Transport, get: Get) {
  return {
    create: async (body: CustomerCreateBody): Promise<Customer> =>
      (
        await t.call({
          method: 'POST',
          path: '/v0.1/customers',
          body,
          schema: CustomerSchema,
        })
      ).data,

    get: (customerId: string): Promise<Customer> =>
      get(CustomerSchema, `/v0.1/customers/${seg(customerId)}`),

    /** Overwrites only the personal details given; the rest keep their values. */
    update: async (customerId: string, body: CustomerUpdateBody): Promise<Customer> =>
      (
        await t.call({
          method: 'PUT',
          path: `/v0.1/customers/${seg(customerId)}`,
          body,
          schema: CustomerSchema,
          idempotent: true,
        })
      ).data,

    /** The customer's saved cards (tokens), active or not. */
    listPaymentInstruments: (customerId: string, at?: CallContext): Promise<PaymentInstrument[]> =>
      get(
        PaymentInstrumentListSchema,
        `/v0.1/customers/${seg(customerId)}/payment-instruments`,
        undefined,
        at,
      ),

    /** Deactivates a saved card (204). */
    deactivatePaymentInstrument: async (customerId: string, token: string): Promise<void> => {
      await t.call({
        method: 'DELETE',
        path: `/v0.1/customers/${seg(customerId)}/payment-instruments/${seg(token)}`,
        idempotent: true,
      });
    },
  };
}

function transactionsApi(t: Transport, get: Get) {
  return {
    /** Refunds a transaction, fully without `amount`, partly with it (204). Not retried. */
    refund: async (transactionId: string, body: RefundBody = {}): Promise<void> => {
      await t.call({ method: 'POST', path: `/v0.1/me/refund/${seg(transactionId)}`, body });
    },

    get: (merchantCode: string, lookup: TransactionLookup): Promise<TransactionFull> =>
      get(
        TransactionFullSchema,
        `/v2.1/merchants/${seg(merchantCode)}/transactions`,
        asQuery(lookup),
      ),

    history: (
      merchantCode: string,
      filter: TransactionHistoryQuery = {},
    ): Promise<TransactionHistoryResponse> =>
      get(
        TransactionHistoryResponseSchema,
        `/v2.1/merchants/${seg(merchantCode)}/transactions/history`,
        asQuery(filter),
      ),

    /** @deprecated Use `transactions.get(merchantCode, lookup)` (v2.1). */
    getV01: (
      lookup: Pick<TransactionLookup, 'id' | 'internal_id' | 'transaction_code'>,
    ): Promise<TransactionFull> =>
      get(TransactionFullSchema, '/v0.1/me/transactions', asQuery(lookup)),

    /** @deprecated Use `transactions.history(merchantCode, filter)` (v2.1). */
    historyV01: (filter: TransactionHistoryQuery = {}): Promise<TransactionHistoryResponse> =>
      get(TransactionHistoryResponseSchema, '/v0.1/me/transactions/history', asQuery(filter)),
  };
}
