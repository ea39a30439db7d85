/**
 * The handler's options resolved in one place: each group by its own resolver (provider.ts,
 * mount.ts, result-pages.ts, hooks.ts, rate-limit.ts, telemetry.ts, logger.ts), composed
 * here once, at start. Every option and sub-option is checked with its name, and unknown
 * ones are refused at every level. The routes read only the resolved `HandlerConfig`.
 */
import { type ResolvedStore, resolveStore } from '../store/parts.ts';
import type { TelemetryOptions } from '../telemetry/options.ts';
import type { LogEntry } from '../types.ts';
import { optionalFunction } from './check.ts';
import { type ResolvedHooks, resolveHooks } from './hooks.ts';
import { resolveLogger } from './logger.ts';
import { type ResolvedMount, resolveMount } from './mount.ts';
import { type ResolvedProvider, resolveProvider } from './provider.ts';
import { type ResolvedRateLimit, resolveRateLimit } from './rate-limit.ts';
import { resolveResultPages } from './result-pages.ts';
import { resolveTelemetry } from './telemetry.ts';
import type { PaymentHandlerOptions, ResultPages } from './types.ts';

export type {
  HookOptions,
  PaymentHandlerOptions,
  ProviderOptions,
  ResolvedCheckout,
  ResultPages,
} from './types.ts';

/** The options after checks and defaults, plus the two helpers every route shares. */
export interface HandlerConfig extends ResolvedMount {
  provider: ResolvedProvider;
  hooks: ResolvedHooks;
  resultPages: Required<ResultPages>;
  resolveCheckout: PaymentHandlerOptions['resolveCheckout'];
  authorizeCustomer: PaymentHandlerOptions['authorizeCustomer'];
  authorizeBasket: PaymentHandlerOptions['authorizeBasket'];
  /** The merchant's store, by part, or undefined for this process's memory. */
  store: ResolvedStore | undefined;
  rateLimit: ResolvedRateLimit | false;
  telemetry: TelemetryOptions | false;
  /** Whether the merchant gave a logger (the access log and trace ids are written only then). */
  loggerGiven: boolean;
  leaseMs: number;
  waitMs: number;
  /** Replaces the API key wherever it appears in a text we did not write. */
  redact(text: string): string;
  /** The merchant's logger with every string redacted; never throws. */
  log(entry: LogEntry): void;
}

const TOP: readonly (keyof PaymentHandlerOptions)[] = [
  'provider',
  'publicUrl',
  'basePath',
  'allowedOrigins',
  'maxBodyBytes',
  'resultPages',
  'resolveCheckout',
  'authorizeCustomer',
  'authorizeBasket',
  'hooks',
  'store',
  'rateLimit',
  'logger',
  'telemetry',
];

/**
 * Refuses, by name, a top-level option this handler does not know; each group's resolver
 * does the same for its own keys.
 */
function refuseUnknown(options: object): void {
  for (const name of Object.keys(options)) {
    if ((TOP as readonly string[]).includes(name)) continue;
    throw new TypeError(
      `createPaymentHandler: unknown option ${name}; the options takes ${TOP.join(', ')}`,
    );
  }
}

export function resolveOptions(options: PaymentHandlerOptions): HandlerConfig {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError('createPaymentHandler needs an options object');
  }
  refuseUnknown(options);
  const provider = resolveProvider(options.provider);
  if (typeof options.resolveCheckout !== 'function') {
    throw new TypeError(
      'createPaymentHandler: resolveCheckout is required: the server, not the browser, sets the amount',
    );
  }
  const hooks = resolveHooks(options.hooks);
  const logger = resolveLogger(options.logger, provider.apiKey);
  return {
    ...resolveMount(options),
    provider,
    hooks,
    resultPages: resolveResultPages(options.resultPages),
    resolveCheckout: options.resolveCheckout,
    authorizeCustomer: optionalFunction('authorizeCustomer', options.authorizeCustomer),
    authorizeBasket: optionalFunction('authorizeBasket', options.authorizeBasket),
    store: resolveStore(options.store),
    rateLimit: resolveRateLimit(options.rateLimit),
    telemetry: resolveTelemetry(options.telemetry),
    loggerGiven: logger.given,
    leaseMs: hooks.leaseMs,
    waitMs: hooks.waitMs,
    redact: logger.redact,
    log: logger.log,
  };
}
