// payment-widget/server: the companion handler and a typed provider client.

export {
  CHECKOUT_STATUSES,
  type CheckoutStatus,
  type FinalStatus,
  isFinalStatus,
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
  type KoaContext,
  type NodeEnv,
  type NodeListenerOptions,
  type NodeRequestListener,
  toNodeListener,
  type WrappedReply,
  type WrappedRequest,
} from '../http/node.ts';
export { PAYMENT_METHOD_IDS, type PaymentMethodId } from '../schemas/methods/index.ts';
export { isLoopbackHost, isSafeBrowserUrl } from '../shared/url.ts';
export { PaymentHandlerError } from './errors.ts';
export { createPaymentHandler, type PaymentHandler } from './handler.ts';
export type {
  HookOptions,
  PaymentHandlerOptions,
  ProviderOptions,
  ResolvedCheckout,
  ResultPages,
} from './options/index.ts';
export {
  RATE_LIMIT_DEFAULTS,
  type RateLimit,
  type RateLimitOptions,
} from './options/rate-limit.ts';
export { type HookRun, LeaseLostError } from './outcomes/done.ts';
export type { ReconcileOptions, ReconcileReport } from './outcomes/reconcile.ts';
export type { CspSources } from './page/csp.ts';
export { type PageSecurityOptions, pageSecurityHeaders } from './page/headers.ts';
export type { CheckedBy, IntegrityManifest, ManifestFile } from './page/manifest.ts';
export { type WidgetTags, type WidgetTagsOptions, widgetTags } from './page/tags.ts';
export type { PageViolation } from './page/violations.ts';
export type { PayoutsQuery } from './provider/account.ts';
export {
  createProviderClient,
  type ProcessResult,
  type ProviderClient,
  type ProviderClientOptions,
  type TransactionHistoryQuery,
  type TransactionLookup,
} from './provider/client.ts';
export { ProviderError, type ProviderErrorKind, parseProviderError } from './provider/errors.ts';
export type { PublicCheckout } from './provider/public.ts';
export { createMemoryStore, type MemoryStoreOptions } from './store/memory.ts';
export {
  createPostgresStore,
  type PgPoolLike,
  type PostgresClientLike,
  type PostgresJsLike,
  type PostgresSchemaOptions,
  type PostgresStore,
  type PostgresStoreOptions,
  postgresStoreSchema,
} from './store/postgres.ts';
export {
  createRedisStore,
  type IoRedisClientLike,
  type NodeRedisClientLike,
  type NodeRedisClusterLike,
  type NodeRedisSentinelLike,
  type RedisClientLike,
  type RedisStoreOptions,
} from './store/redis.ts';
export type {
  ClaimHolder,
  ClaimState,
  ClaimStore,
  CompleteStore,
  Counter,
  CounterState,
  CounterStore,
  PaymentStore,
  RecordStore,
  SqlTransaction,
  StoreParts,
  WatchStore,
} from './store/types.ts';
export type {
  CallContext,
  FailedCheckout,
  LogEntry,
  Logger,
  PaidCheckout,
  PlatformContext,
} from './types.ts';
