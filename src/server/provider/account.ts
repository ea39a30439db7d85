/**
 * The provider client's account side: the merchant's profile and settings,
 * bank accounts, payouts, receipts, card readers and (deprecated) operators.
 * Declarative like `client.ts`, which exposes these areas beside the payment side.
 */
import {
  type BankAccount,
  BankAccountListSchema,
  type DoingBusinessAs,
  DoingBusinessAsSchema,
  type MerchantAccount,
  MerchantAccountSchema,
  type MerchantProfile,
  MerchantProfileSchema,
  type MerchantSettings,
  MerchantSettingsSchema,
  type Operator,
  type OperatorCreateBody,
  OperatorListSchema,
  OperatorSchema,
  type OperatorUpdateBody,
  type Payout,
  PayoutListSchema,
  type PersonalProfile,
  PersonalProfileSchema,
  type Reader,
  type ReaderCheckoutBody,
  type ReaderCheckoutResponse,
  ReaderCheckoutResponseSchema,
  type ReaderCreateBody,
  type ReaderList,
  ReaderListSchema,
  ReaderSchema,
  type ReaderUpdateBody,
  type Receipt,
  ReceiptSchema,
} from '../../schemas/index.ts';
import { asQuery, type Get, seg, type Transport } from './transport.ts';

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

/** The account areas of the client, over one transport. */
export function accountApi(t: Transport, get: Get) {
  const merchant = {
    /** The whole merchant account; `include` adds sections such as `settings`. */
    getAccount: (include: string[] = []): Promise<MerchantAccount> =>
      get(MerchantAccountSchema, '/v0.1/me', include.length > 0 ? { 'include[]': include } : {}),
    getPersonalProfile: (): Promise<PersonalProfile> =>
      get(PersonalProfileSchema, '/v0.1/me/personal-profile'),
    getMerchantProfile: (): Promise<MerchantProfile> =>
      get(MerchantProfileSchema, '/v0.1/me/merchant-profile'),
    getSettings: (): Promise<MerchantSettings> =>
      get(MerchantSettingsSchema, '/v0.1/me/merchant-profile/settings'),
    getDoingBusinessAs: (): Promise<DoingBusinessAs> =>
      get(DoingBusinessAsSchema, '/v0.1/me/merchant-profile/doing-business-as'),
    listBankAccounts: (
      merchantCode: string,
      filter: { primary?: boolean } = {},
    ): Promise<BankAccount[]> =>
      get(
        BankAccountListSchema,
        `/v1.1/merchants/${seg(merchantCode)}/bank-accounts`,
        asQuery(filter),
      ),
    /** @deprecated Use `merchant.listBankAccounts(merchantCode)` (v1.1). */
    listBankAccountsV01: (filter: { primary?: boolean } = {}): Promise<BankAccount[]> =>
      get(BankAccountListSchema, '/v0.1/me/merchant-profile/bank-accounts', asQuery(filter)),
  };

  const payouts = {
    list: (merchantCode: string, filter: PayoutsQuery): Promise<Payout[]> =>
      get(PayoutListSchema, `/v1.0/merchants/${seg(merchantCode)}/payouts`, asQuery(filter)),
    /** @deprecated Use `payouts.list(merchantCode, filter)` (v1.0). */
    listV01: (filter: PayoutsQuery): Promise<Payout[]> =>
      get(PayoutListSchema, '/v0.1/me/financials/payouts', asQuery(filter)),
  };

  const receipts = {
    /** Receipt data of a transaction; `mid` is the merchant code. */
    get: (transactionId: string, filter: { mid: string; tx_event_id?: number }): Promise<Receipt> =>
      get(ReceiptSchema, `/v1.1/receipts/${seg(transactionId)}`, asQuery(filter)),
  };

  const readerPath = (merchantCode: string, id?: string) =>
    `/v0.1/merchants/${seg(merchantCode)}/readers${id === undefined ? '' : `/${seg(id)}`}`;

  /** Card readers (a preview feature of the provider). */
  const readers = {
    list: (merchantCode: string): Promise<ReaderList> =>
      get(ReaderListSchema, readerPath(merchantCode)),

    /** Pairs a device by the code it shows; the reader starts as `processing`. */
    create: async (merchantCode: string, body: ReaderCreateBody): Promise<Reader> =>
      (
        await t.call({
          method: 'POST',
          path: readerPath(merchantCode),
          body,
          schema: ReaderSchema,
        })
      ).data,

    get: (merchantCode: string, id: string): Promise<Reader> =>
      get(ReaderSchema, readerPath(merchantCode, id)),

    update: async (merchantCode: string, id: string, body: ReaderUpdateBody): Promise<Reader> =>
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
    checkout: async (
      merchantCode: string,
      id: string,
      body: ReaderCheckoutBody,
    ): Promise<ReaderCheckoutResponse> =>
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
    list: (filter: { query?: string; include_primary?: boolean } = {}): Promise<Operator[]> =>
      get(OperatorListSchema, '/v0.1/me/accounts', asQuery(filter)),
    /** @deprecated */
    create: async (body: OperatorCreateBody): Promise<Operator> =>
      (
        await t.call({
          method: 'POST',
          path: '/v0.1/me/accounts',
          body,
          schema: OperatorSchema,
        })
      ).data,
    /** @deprecated */
    get: (operatorId: number): Promise<Operator> =>
      get(OperatorSchema, `/v0.1/me/accounts/${seg(operatorId)}`),
    /** @deprecated A new password also unblocks a disabled operator. */
    update: async (operatorId: number, body: OperatorUpdateBody): Promise<Operator> =>
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

  return { merchant, payouts, receipts, readers, operators };
}
