// payment-widget/server: the companion handler and a typed provider client.

export { type FetchHandler, type NodeListenerOptions, toNodeListener } from '../http/node.ts';
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
  type PaymentHandlerOptions,
  type ResolvedCheckout,
} from './handler.ts';
export {
  type ClaimState,
  createMemoryIdempotencyStore,
  type IdempotencyStore,
  type MemoryIdempotencyStoreOptions,
} from './idempotency.ts';
export type { PublicCheckout } from './public.ts';
export {
  createRedisIdempotencyStore,
  type IoRedisClientLike,
  type NodeRedisClientLike,
  type RedisClientLike,
  type RedisIdempotencyStoreOptions,
} from './redis-store.ts';
