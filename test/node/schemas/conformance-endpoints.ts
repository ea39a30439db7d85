// The endpoints conformance.test.ts checks against the provider's OpenAPI document: the
// seed's endpoints, each with our schema for its request body and for each documented
// response status.
import * as z from 'zod/mini';
import {
  AuthErrorSchema,
  BankAccountListSchema,
  CheckoutCreateBodySchema,
  CheckoutProcessBodySchema,
  CheckoutProcessResponseSchema,
  CheckoutSchema,
  CustomerCreateBodySchema,
  CustomerSchema,
  CustomerUpdateBodySchema,
  DetailsErrorSchema,
  DoingBusinessAsSchema,
  ErrorBodySchema,
  FlatErrorListSchema,
  FlatErrorSchema,
  MerchantAccountSchema,
  MerchantProfileSchema,
  MerchantSettingsSchema,
  OperatorCreateBodySchema,
  OperatorListSchema,
  OperatorSchema,
  OperatorUpdateBodySchema,
  PaymentInstrumentListSchema,
  PaymentMethodsResponseSchema,
  PayoutListSchema,
  PersonalProfileSchema,
  ProcessAcceptedSchema,
  ReaderCheckoutBodySchema,
  ReaderCheckoutResponseSchema,
  ReaderCreateBodySchema,
  ReaderErrorSchema,
  ReaderListSchema,
  ReaderSchema,
  ReaderUpdateBodySchema,
  ReceiptSchema,
  RefundBodySchema,
  TransactionFullSchema,
  TransactionHistoryResponseSchema,
} from '../../../src/schemas/index.ts';

export type Schema = z.ZodMiniType;

const errors = ErrorBodySchema;
const PUT_400 = z.union([FlatErrorSchema, FlatErrorListSchema]);

export interface Endpoint {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  path: string;
  request?: Schema;
  /** Schema per documented status; a status left out must have no JSON body. */
  responses: Record<string, Schema>;
  note?: string;
}

// The seed's 36 endpoints, plus "update operator", whose method and path the
// seed leaves "not shown" and the OpenAPI document gives as PUT.
export const SEED_ENDPOINTS: Endpoint[] = [
  {
    method: 'get',
    path: '/v0.1/merchants/{merchant_code}/payment-methods',
    responses: { 200: PaymentMethodsResponseSchema, 400: DetailsErrorSchema, 401: errors },
  },
  {
    method: 'post',
    path: '/v0.1/checkouts',
    request: CheckoutCreateBodySchema,
    responses: {
      201: CheckoutSchema,
      400: FlatErrorSchema,
      401: errors,
      403: AuthErrorSchema,
      409: FlatErrorSchema,
    },
  },
  {
    method: 'get',
    path: '/v0.1/checkouts',
    responses: { 200: z.array(CheckoutSchema), 401: errors },
  },
  {
    method: 'get',
    path: '/v0.1/checkouts/{id}',
    responses: { 200: CheckoutSchema, 401: errors, 404: FlatErrorSchema },
  },
  {
    method: 'put',
    path: '/v0.1/checkouts/{id}',
    request: CheckoutProcessBodySchema,
    responses: {
      200: CheckoutProcessResponseSchema,
      202: ProcessAcceptedSchema,
      400: PUT_400,
      401: errors,
      404: FlatErrorSchema,
      409: FlatErrorSchema,
    },
  },
  {
    method: 'delete',
    path: '/v0.1/checkouts/{id}',
    responses: {
      200: CheckoutSchema,
      401: errors,
      404: FlatErrorSchema,
      409: FlatErrorSchema,
    },
  },
  {
    method: 'post',
    path: '/v0.1/customers',
    request: CustomerCreateBodySchema,
    responses: { 201: CustomerSchema, 401: errors, 403: AuthErrorSchema, 409: FlatErrorSchema },
  },
  {
    method: 'get',
    path: '/v0.1/customers/{customer_id}',
    responses: { 200: CustomerSchema, 401: errors, 403: AuthErrorSchema, 404: FlatErrorSchema },
  },
  {
    method: 'put',
    path: '/v0.1/customers/{customer_id}',
    request: CustomerUpdateBodySchema,
    responses: { 200: CustomerSchema, 401: errors, 403: AuthErrorSchema, 404: FlatErrorSchema },
  },
  {
    method: 'get',
    path: '/v0.1/customers/{customer_id}/payment-instruments',
    responses: {
      200: PaymentInstrumentListSchema,
      401: errors,
      403: AuthErrorSchema,
      404: FlatErrorSchema,
    },
  },
  {
    method: 'delete',
    path: '/v0.1/customers/{customer_id}/payment-instruments/{token}',
    responses: { 401: errors, 403: AuthErrorSchema, 404: FlatErrorSchema },
  },
  {
    method: 'post',
    path: '/v0.1/me/refund/{txn_id}',
    request: RefundBodySchema,
    responses: { 404: FlatErrorSchema, 409: FlatErrorSchema },
  },
  {
    method: 'get',
    path: '/v2.1/merchants/{merchant_code}/transactions',
    responses: { 200: TransactionFullSchema, 401: errors, 404: FlatErrorSchema },
  },
  {
    method: 'get',
    path: '/v2.1/merchants/{merchant_code}/transactions/history',
    responses: { 200: TransactionHistoryResponseSchema, 401: errors },
  },
  {
    method: 'get',
    path: '/v0.1/me/transactions',
    responses: { 200: TransactionFullSchema, 401: errors, 404: FlatErrorSchema },
  },
  {
    method: 'get',
    path: '/v0.1/me/transactions/history',
    responses: { 200: TransactionHistoryResponseSchema, 401: errors },
  },
  { method: 'get', path: '/v0.1/me', responses: { 200: MerchantAccountSchema, 401: errors } },
  {
    method: 'get',
    path: '/v0.1/me/personal-profile',
    responses: { 200: PersonalProfileSchema, 401: errors },
  },
  {
    method: 'get',
    path: '/v0.1/me/merchant-profile',
    responses: { 200: MerchantProfileSchema, 401: errors, 403: AuthErrorSchema },
  },
  {
    method: 'get',
    path: '/v0.1/me/merchant-profile/settings',
    responses: { 200: MerchantSettingsSchema, 401: errors, 403: AuthErrorSchema },
  },
  {
    method: 'get',
    path: '/v0.1/me/merchant-profile/doing-business-as',
    responses: { 200: DoingBusinessAsSchema, 401: errors },
  },
  {
    method: 'get',
    path: '/v1.1/merchants/{merchant_code}/bank-accounts',
    responses: { 200: BankAccountListSchema, 401: errors, 403: AuthErrorSchema },
  },
  {
    method: 'get',
    path: '/v0.1/me/merchant-profile/bank-accounts',
    responses: { 200: BankAccountListSchema, 401: errors, 403: AuthErrorSchema },
  },
  {
    method: 'get',
    path: '/v1.0/merchants/{merchant_code}/payouts',
    responses: { 200: PayoutListSchema, 401: errors },
  },
  {
    method: 'get',
    path: '/v0.1/me/financials/payouts',
    responses: { 200: PayoutListSchema, 401: errors },
  },
  {
    method: 'get',
    path: '/v1.1/receipts/{id}',
    responses: { 200: ReceiptSchema, 400: FlatErrorSchema, 401: errors },
  },
  {
    method: 'get',
    path: '/v0.1/merchants/{merchant_code}/readers',
    responses: { 200: ReaderListSchema },
  },
  {
    method: 'post',
    path: '/v0.1/merchants/{merchant_code}/readers',
    request: ReaderCreateBodySchema,
    responses: { 201: ReaderSchema },
  },
  {
    method: 'get',
    path: '/v0.1/merchants/{merchant_code}/readers/{id}',
    responses: { 200: ReaderSchema },
  },
  {
    method: 'patch',
    path: '/v0.1/merchants/{merchant_code}/readers/{id}',
    request: ReaderUpdateBodySchema,
    responses: { 200: ReaderSchema },
  },
  { method: 'delete', path: '/v0.1/merchants/{merchant_code}/readers/{id}', responses: {} },
  {
    method: 'post',
    path: '/v0.1/merchants/{merchant_code}/readers/{id}/checkout',
    request: ReaderCheckoutBodySchema,
    responses: {
      201: ReaderCheckoutResponseSchema,
      400: ReaderErrorSchema,
      422: ReaderErrorSchema,
      500: ReaderErrorSchema,
      502: ReaderErrorSchema,
      504: ReaderErrorSchema,
    },
  },
  {
    method: 'post',
    path: '/v0.1/merchants/{merchant_code}/readers/{id}/terminate',
    responses: {
      422: ReaderErrorSchema,
      500: ReaderErrorSchema,
      502: ReaderErrorSchema,
      504: ReaderErrorSchema,
    },
  },
  { method: 'get', path: '/v0.1/me/accounts', responses: { 200: OperatorListSchema } },
  {
    method: 'post',
    path: '/v0.1/me/accounts',
    request: OperatorCreateBodySchema,
    responses: { 200: OperatorSchema, 403: FlatErrorSchema },
  },
  { method: 'get', path: '/v0.1/me/accounts/{operator_id}', responses: { 200: OperatorSchema } },
  {
    method: 'put',
    path: '/v0.1/me/accounts/{operator_id}',
    request: OperatorUpdateBodySchema,
    responses: { 200: OperatorSchema, 400: FlatErrorSchema },
    note: 'update operator: method and path "not shown" in the seed',
  },
];
