/**
 * A typed client of the provider API: every endpoint of the seed, grouped by
 * area, answers validated with the shared schemas. One file on purpose: each
 * endpoint is a few declarative lines over `transport.ts`, and the whole API
 * reads at a glance here; an area that grows logic of its own moves out.
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
  BankAccountListSchema,
  type Checkout,
  type CheckoutCreateBody,
  type CheckoutProcessBody,
  CheckoutProcessResponseSchema,
  CheckoutSchema,
  type Customer,
  type CustomerCreateBody,
  CustomerSchema,
  type CustomerUpdateBody,
  DoingBusinessAsSchema,
  MerchantAccountSchema,
  MerchantProfileSchema,
  MerchantSettingsSchema,
  type NextStep,
  type OperatorCreateBody,
  OperatorListSchema,
  OperatorSchema,
  type OperatorUpdateBody,
  PaymentInstrumentListSchema,
  PaymentMethodsResponseSchema,
  PayoutListSchema,
  PersonalProfileSchema,
  type ReaderCheckoutBody,
  ReaderCheckoutResponseSchema,
  type ReaderCreateBody,
  ReaderListSchema,
  ReaderSchema,
  type ReaderUpdateBody,
  ReceiptSchema,
  type RefundBody,
  TransactionFullSchema,
  TransactionHistoryResponseSchema,
} from '../../schemas/index.ts';
import type { CallContext } from '../types.ts';
import { ProviderError } from './errors.ts';
import { createTransport, type Query, seg, type TransportOptions } from './transport.ts';

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

export interface PayoutsQuery {
  start_date: string;
  end_date: string;
  /**
   * Only `json`: the provider's `csv` answer is a file, not JSON, and every
   * client call validates a JSON body, so asking for CSV here could only fail.
   */
  format?: 'json';
  limit?: number;
  order?: 'desc' | 'asc';
}

const CheckoutListSchema = z.array(CheckoutSchema);
function query(values: object): Query {
  return values as Query;
}

/** Whether a lost process answer may have charged: the checkout moved or has a transaction. */
function wasProcessed(checkout: Checkout): boolean {
  return checkout.status !== 'PENDING' || (checkout.transactions?.length ?? 0) > 0;
}

export function createProviderClient(options: ProviderClientOptions) {
  const t = createTransport(options);
  const get = async <T>(schema: z.ZodMiniType<T>, path: string, q?: Query, at?: CallContext) =>
    (await t.call({ method: 'GET', path, query: q, schema, requestId: at?.requestId })).data;

  const checkouts = {
    /** Lists checkouts, optionally only the one with `checkout_reference`. */
    list: (filter: { checkout_reference?: string } = {}, at?: CallContext) =>
      get(CheckoutListSchema, '/v0.1/checkouts', query(filter), at),

    /** Creates a PENDING checkout (201). */
    create: async (body: CheckoutCreateBody, at?: CallContext) =>
      (
        await t.call({
          method: 'POST',
          path: '/v0.1/checkouts',
          body,
          schema: CheckoutSchema,
          requestId: at?.requestId,
        })
      ).data,

    get: (id: string, at?: CallContext) =>
      get(CheckoutSchema, `/v0.1/checkouts/${seg(id)}`, undefined, at),

    /**
     * Processes (charges) a checkout. Never retried: a repeated charge is
     * worse than an error. When the answer is lost (timeout, network error,
     * 5xx) the checkout is read back: if it left PENDING or carries a
     * transaction, that checkout is returned with `recovered: true`; if it is
     * untouched, a `ProviderError` with `retryable: true` says a new attempt
     * is safe. If even the read fails, the error has code
     * `PROCESS_OUTCOME_UNKNOWN` and `retryable: false`: confirm later with `get`.
     */
    process: async (
      id: string,
      body: CheckoutProcessBody,
      at?: CallContext,
    ): Promise<ProcessResult> => {
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
        const lost =
          error instanceof ProviderError &&
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
    },

    /** Deactivates an unprocessed checkout (status EXPIRED); a processed one is refused (409). */
    deactivate: async (id: string) =>
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
    ) =>
      get(
        PaymentMethodsResponseSchema,
        `/v0.1/merchants/${seg(merchantCode)}/payment-methods`,
        query(filter),
        at,
      ),
  };

  const customers = {
    create: async (body: CustomerCreateBody): Promise<Customer> =>
      (await t.call({ method: 'POST', path: '/v0.1/customers', body, schema: CustomerSchema }))
        .data,

    get: (customerId: string) => get(CustomerSchema, `/v0.1/customers/${seg(customerId)}`),

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
    listPaymentInstruments: (customerId: string, at?: CallContext) =>
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

  const transactions = {
    /** Refunds a transaction, fully without `amount`, partly with it (204). Not retried. */
    refund: async (transactionId: string, body: RefundBody = {}): Promise<void> => {
      await t.call({ method: 'POST', path: `/v0.1/me/refund/${seg(transactionId)}`, body });
    },

    get: (merchantCode: string, lookup: TransactionLookup) =>
      get(
        TransactionFullSchema,
        `/v2.1/merchants/${seg(merchantCode)}/transactions`,
        query(lookup),
      ),

    history: (merchantCode: string, filter: TransactionHistoryQuery = {}) =>
      get(
        TransactionHistoryResponseSchema,
        `/v2.1/merchants/${seg(merchantCode)}/transactions/history`,
        query(filter),
      ),

    /** @deprecated Use `transactions.get(merchantCode, lookup)` (v2.1). */
    getV01: (lookup: Pick<TransactionLookup, 'id' | 'internal_id' | 'transaction_code'>) =>
      get(TransactionFullSchema, '/v0.1/me/transactions', query(lookup)),

    /** @deprecated Use `transactions.history(merchantCode, filter)` (v2.1). */
    historyV01: (filter: TransactionHistoryQuery = {}) =>
      get(TransactionHistoryResponseSchema, '/v0.1/me/transactions/history', query(filter)),
  };

  const merchant = {
    /** The whole merchant account; `include` adds sections such as `settings`. */
    getAccount: (include: string[] = []) =>
      get(MerchantAccountSchema, '/v0.1/me', include.length > 0 ? { 'include[]': include } : {}),
    getPersonalProfile: () => get(PersonalProfileSchema, '/v0.1/me/personal-profile'),
    getMerchantProfile: () => get(MerchantProfileSchema, '/v0.1/me/merchant-profile'),
    getSettings: () => get(MerchantSettingsSchema, '/v0.1/me/merchant-profile/settings'),
    getDoingBusinessAs: () =>
      get(DoingBusinessAsSchema, '/v0.1/me/merchant-profile/doing-business-as'),
    listBankAccounts: (merchantCode: string, filter: { primary?: boolean } = {}) =>
      get(
        BankAccountListSchema,
        `/v1.1/merchants/${seg(merchantCode)}/bank-accounts`,
        query(filter),
      ),
    /** @deprecated Use `merchant.listBankAccounts(merchantCode)` (v1.1). */
    listBankAccountsV01: (filter: { primary?: boolean } = {}) =>
      get(BankAccountListSchema, '/v0.1/me/merchant-profile/bank-accounts', query(filter)),
  };

  const payouts = {
    list: (merchantCode: string, filter: PayoutsQuery) =>
      get(PayoutListSchema, `/v1.0/merchants/${seg(merchantCode)}/payouts`, query(filter)),
    /** @deprecated Use `payouts.list(merchantCode, filter)` (v1.0). */
    listV01: (filter: PayoutsQuery) =>
      get(PayoutListSchema, '/v0.1/me/financials/payouts', query(filter)),
  };

  const receipts = {
    /** Receipt data of a transaction; `mid` is the merchant code. */
    get: (transactionId: string, filter: { mid: string; tx_event_id?: number }) =>
      get(ReceiptSchema, `/v1.1/receipts/${seg(transactionId)}`, query(filter)),
  };

  const readerPath = (merchantCode: string, id?: string) =>
    `/v0.1/merchants/${seg(merchantCode)}/readers${id === undefined ? '' : `/${seg(id)}`}`;

  /** Card readers (a preview feature of the provider). */
  const readers = {
    list: (merchantCode: string) => get(ReaderListSchema, readerPath(merchantCode)),

    /** Pairs a device by the code it shows; the reader starts as `processing`. */
    create: async (merchantCode: string, body: ReaderCreateBody) =>
      (await t.call({ method: 'POST', path: readerPath(merchantCode), body, schema: ReaderSchema }))
        .data,

    get: (merchantCode: string, id: string) => get(ReaderSchema, readerPath(merchantCode, id)),

    update: async (merchantCode: string, id: string, body: ReaderUpdateBody) =>
      (
        await t.call({
          method: 'PATCH',
          path: readerPath(merchantCode, id),
          body,
          schema: ReaderSchema,
          idempotent: true,
        })
      ).data,

    delete: async (merchantCode: string, id: string): Promise<void> => {
      await t.call({ method: 'DELETE', path: readerPath(merchantCode, id), idempotent: true });
    },

    /**
     * Starts an in-person checkout on the device (asynchronous: the answer
     * carries only `client_transaction_id`). Not retried: a second call could
     * start a second payment.
     */
    checkout: async (merchantCode: string, id: string, body: ReaderCheckoutBody) =>
      (
        await t.call({
          method: 'POST',
          path: `${readerPath(merchantCode, id)}/checkout`,
          body,
          schema: ReaderCheckoutResponseSchema,
        })
      ).data,

    /** Asks the device to stop the current checkout; there is no confirmation. */
    terminate: async (merchantCode: string, id: string): Promise<void> => {
      await t.call({ method: 'POST', path: `${readerPath(merchantCode, id)}/terminate` });
    },
  };

  /** @deprecated Sub-accounts (operators) are deprecated by the provider. */
  const operators = {
    /** @deprecated */
    list: (filter: { query?: string; include_primary?: boolean } = {}) =>
      get(OperatorListSchema, '/v0.1/me/accounts', query(filter)),
    /** @deprecated */
    create: async (body: OperatorCreateBody) =>
      (await t.call({ method: 'POST', path: '/v0.1/me/accounts', body, schema: OperatorSchema }))
        .data,
    /** @deprecated */
    get: (operatorId: number) => get(OperatorSchema, `/v0.1/me/accounts/${seg(operatorId)}`),
    /** @deprecated A new password also unblocks a disabled operator. */
    update: async (operatorId: number, body: OperatorUpdateBody) =>
      (
        await t.call({
          method: 'PUT',
          path: `/v0.1/me/accounts/${seg(operatorId)}`,
          body,
          schema: OperatorSchema,
          idempotent: true,
        })
      ).data,
  };

  return { checkouts, customers, transactions, merchant, payouts, receipts, readers, operators };
}

export type ProviderClient = ReturnType<typeof createProviderClient>;
