// payment-widget/server: the companion handler and a typed provider client.

export {
  CHECKOUT_STATUSES,
  type CheckoutStatus,
  type FinalStatus,
  isFinalStatus,
  PAYMENT_METHOD_IDS,
  type PaymentMethodId,
} from '../domain/checkout.ts';
export {
  HANDLER_ERRORS,
  type HandlerErrorCode,
  type PaymentErrorCode,
  WIDGET_ERROR_CODES,
  type WidgetErrorCode,
} from '../domain/errors.ts';
export {
  type FetchHandler,
  type NodeEnv,
  type NodeListenerOptions,
  toNodeListener,
} from '../http/node.ts';
export { isLoopbackHost, isSafeBrowserUrl } from '../next-step/url.ts';
export {
  createProviderClient,
  type PayoutsQuery,
  type ProcessResult,
  type ProviderClient,
  type ProviderClientOptions,
  type TransactionHistoryQuery,
  type TransactionLookup,
} from './client.ts';
export {
  PaymentHandlerError,
  ProviderError,
  type ProviderErrorKind,
  parseProviderError,
} from './errors.ts';
export {
  createPaymentHandler,
  type LogEntry,
  type PaymentHandler,
  type PaymentHandlerOptions,
  type PlatformContext,
  type ReconcileOptions,
  type ReconcileReport,
  type ResolvedCheckout,
} from './handler.ts';
export {
  type ClaimState,
  type Counter,
  type CounterState,
  createMemoryIdempotencyStore,
  type IdempotencyStore,
  type MemoryIdempotencyStoreOptions,
} from './idempotency.ts';
export type { PublicCheckout } from './public.ts';
export { RATE_LIMIT_DEFAULTS, type RateLimit, type RateLimitOptions } from './rate-limit.ts';
export {
  createRedisIdempotencyStore,
  type IoRedisClientLike,
  type NodeRedisClientLike,
  type RedisClientLike,
  type RedisIdempotencyStoreOptions,
} from './redis-store.ts';
export type { CallContext } from './transport.ts';
