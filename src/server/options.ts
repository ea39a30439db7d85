/**
 * The handler's options, grouped by concern as a merchant reads them: how to reach the
 * provider, where the handler is mounted and who may call it, where shoppers land, what the
 * merchant's server decides, the hooks, the shared store, the limits, the logger and where
 * telemetry goes. Then the checked, defaulted form the routes work with, including the logger
 * that never lets the key out. Options of the earlier flat shape are refused with the place
 * they moved to.
 */
import type { CheckoutPurpose } from '../schemas/index.ts';
import type { RateLimitOptions } from './guards/rate-limit.ts';
import type { PaymentStore } from './store/types.ts';
import type { TelemetryOptions } from './telemetry/options.ts';
import type { FailedCheckout, LogEntry, Logger, PaidCheckout } from './types.ts';

/** What the merchant's server decides about an order. */
export interface ResolvedCheckout {
  /** In major units, e.g. 10.5 for 10.50 EUR. */
  amount: number;
  /** ISO 4217, e.g. `EUR`. */
  currency: string;
  description?: string;
  /** The checkout_reference; unique per checkout. Default: a random UUID. */
  reference?: string;
  /** Ties the checkout (and a card saved with it) to a provider customer. */
  customerId?: string;
  purpose?: CheckoutPurpose;
  /** Whether to set `redirect_url` (3DS as a full-page redirect, APMs possible). Default true. */
  redirect?: boolean;
  /** ISO 8601; the checkout must be processed before then. */
  validUntil?: string;
}

/** How the handler reaches the provider. */
export interface ProviderOptions {
  /** Provider base URL (https, or http on a loopback host such as the sandbox). */
  baseUrl: string;
  /** Secret provider key. Never leaves this server except towards `baseUrl`. */
  apiKey: string;
  merchantCode: string;
  /** The merchant user receiving the payments, if the account has several. */
  payToEmail?: string;
  /** Per provider call. Default 10 000 ms. */
  timeoutMs?: number;
  /** Extra attempts for provider GETs (never for a payment). Default 2. */
  retries?: number;
  /**
   * Calls the provider through this `fetch` instead of the built-in keep-alive client
   * (tests, proxies, instrumentation). Timeouts, retries and the PUT rule stay the same.
   */
  fetch?: typeof fetch;
}

/** Where `GET /return` sends the shopper, with `?checkout_id=` appended. */
export interface ResultPages {
  /** After a payment. */
  success: string;
  /** After a failed or expired payment. */
  failure: string;
  /**
   * When the outcome is not final yet (an abandoned bank page) or could not be read.
   * Default: `failure`, so the shopper can try again. The page should confirm through
   * `GET /checkouts/:id`.
   */
  pending?: string;
}

/** The merchant's outcome hooks, and how they run. */
export interface HookOptions {
  /**
   * Runs once per checkout that reached PAID, whichever report (webhook, return page, the
   * widget's confirmation, `reconcile()`) sees it first. Off the shopper's path: a slow hook
   * never delays the answer the shopper waits for.
   */
  onPaid?(checkout: PaidCheckout): unknown;
  /** Runs once per checkout that reached FAILED or EXPIRED; off the shopper's path too. */
  onFailed?(checkout: FailedCheckout): unknown;
  /**
   * How long a hook's claim holds while the hook runs: other reports of the checkout do not
   * run it meanwhile (the webhook answers 503 so the provider delivers again). A claim whose
   * holder died (a crash, a deploy) is taken over after this. Keep it above the slowest
   * hook: a hook that outlives it may run a second time alongside. Default 30 000 ms.
   */
  leaseMs?: number;
  /**
   * How long `PUT` and `GET /checkouts/:id` and `GET /return` may wait for the hook they
   * started before answering. Default 0: the shopper sees the provider's answer at once and
   * the hook runs in the background (under the same claim, so still once). Set it, up to a
   * few seconds, only when the shop's result page needs the order fulfilled first; a hook
   * slower than this still finishes in the background. `POST /webhook` always waits.
   */
  waitMs?: number;
  /**
   * Keeps a background hook alive on runtimes that stop a request's work once its answer is
   * sent: pass the platform's `waitUntil` (Vercel's `waitUntil` from `@vercel/functions`,
   * Next.js's `after` from `next/server`, Cloudflare's `waitUntil` from `cloudflare:workers`).
   * On Cloudflare Workers the handler also finds it by itself when it is the Worker's
   * `fetch(request, env, ctx)`. On Node, Bun and Deno nothing is needed. Whatever is still
   * cut off is caught by the webhook's redelivery and by `reconcile()`.
   */
  waitUntil?: (promise: Promise<unknown>) => void;
}

export interface PaymentHandlerOptions {
  /** How the handler reaches the provider. */
  provider: ProviderOptions;
  /**
   * Absolute URL of the mount as the browser and the provider reach it, e.g.
   * `https://shop.example/payments`. Checkouts get `${publicUrl}/return` as
   * redirect_url and `${publicUrl}/webhook` as return_url.
   */
  publicUrl: string;
  /** Mount path the routes are relative to. Default `/payments`. */
  basePath?: string;
  /** Origins allowed to create and process checkouts, e.g. `['https://shop.example']`. */
  allowedOrigins: string[];
  /** The largest request body read. Default 16 KiB. */
  maxBodyBytes?: number;
  /** Where `GET /return` sends the shopper. */
  resultPages: ResultPages;
  /**
   * Turns the browser's `order` into amount and currency. The only source of the amount:
   * nothing in a request body can change it. Throw a `PaymentHandlerError` (e.g. 400) to
   * refuse an order.
   */
  resolveCheckout(order: unknown, request: Request): ResolvedCheckout | Promise<ResolvedCheckout>;
  /**
   * Whether the request may use this provider customer's saved cards (list them, pay with
   * their tokens). Without it, every customer route is refused.
   */
  authorizeCustomer?(request: Request, customerId: string): boolean | Promise<boolean>;
  /** `onPaid`, `onFailed`, and how they run. */
  hooks?: HookOptions;
  /**
   * The state instances share: hook claims, open checkouts, rate counters. Default: this
   * process's memory (`createMemoryStore()`), right for one instance; several instances
   * share one, e.g. `createRedisStore(client)`.
   */
  store?: PaymentStore;
  /**
   * The card-testing defence: how many checkouts one client may create and payments it may
   * attempt per window, and how many attempts one checkout may take. On by default; over a
   * limit the answer is 429 `TOO_MANY_REQUESTS` with `Retry-After`, before any provider call.
   * Counted in `store`, so shared by the instances that share it. `false` switches every
   * limit off (do so only when something in front of the handler limits these routes).
   */
  rateLimit?: RateLimitOptions | false;
  /**
   * Receives one entry per request and per problem; never bodies, card data or the key.
   * Without it, warnings and errors go to the console, each problem once a minute at most.
   */
  logger?: Logger;
  /**
   * Where the handler's OpenTelemetry spans and metrics go (docs/server.md, "Observability").
   * Default: the global providers of `@opentelemetry/api` when it is installed, so an app that
   * starts the OpenTelemetry SDK needs to pass nothing, and one without it records (and pays
   * for) nothing. `false` switches it off.
   */
  telemetry?: TelemetryOptions | false;
}

/** Without a logger, each problem reaches the console at most once in this long. */
const CONSOLE_EVERY_MS = 60_000;

/**
 * The logger when the merchant gives none: warnings and errors to the console, so a
 * refused origin or a store outage is never silent, and a flood stays one line a minute per
 * problem (an entry's `problem`, else its message with the ids and numbers taken out).
 */
function consoleLogger(): Logger {
  const lastSaid = new Map<string, number>();
  return (entry) => {
    if (entry.level === 'info') return;
    const key = `${entry.level} ${typeof entry.problem === 'string' ? entry.problem : entry.message.replace(/\S*\d\S*/g, '#')}`;
    const now = Date.now();
    if (now - (lastSaid.get(key) ?? Number.NEGATIVE_INFINITY) < CONSOLE_EVERY_MS) return;
    // Bounded: the keys are the handler's own kinds of problem, a few dozen at most.
    if (lastSaid.size > 1_000) lastSaid.clear();
    lastSaid.set(key, now);
    const where = [entry.checkoutId, entry.requestId].filter((v) => typeof v === 'string');
    const line = `payment-widget: ${entry.message}${where.length > 0 ? ` (${where.join(', ')})` : ''}`;
    if (entry.level === 'error') console.error(line);
    else console.warn(line);
  };
}

/** A hook's claim holds this long by default. */
const LEASE_MS = 30_000;

/** Bodies the widget sends are a few hundred bytes; 16 KiB leaves room and stops floods. */
const MAX_BODY_BYTES = 16 * 1024;

/** The options after checks and defaults, plus the two helpers every route shares. */
export interface HandlerConfig {
  options: PaymentHandlerOptions;
  provider: ProviderOptions;
  hooks: HookOptions;
  basePath: string;
  publicUrl: string;
  allowedOrigins: ReadonlySet<string>;
  maxBodyBytes: number;
  resultPages: Required<ResultPages>;
  leaseMs: number;
  waitMs: number;
  /** Replaces the API key wherever it appears in a text we did not write. */
  redact(text: string): string;
  /** The merchant's logger with every string redacted; never throws. */
  log(entry: LogEntry): void;
}

/** Where each option of the earlier flat shape went. */
const MOVED: Readonly<Record<string, string>> = {
  baseUrl: 'provider.baseUrl',
  apiKey: 'provider.apiKey',
  merchantCode: 'provider.merchantCode',
  payToEmail: 'provider.payToEmail',
  timeoutMs: 'provider.timeoutMs',
  retries: 'provider.retries',
  fetch: 'provider.fetch',
  successUrl: 'resultPages.success',
  failureUrl: 'resultPages.failure',
  pendingUrl: 'resultPages.pending',
  onPaid: 'hooks.onPaid',
  onFailed: 'hooks.onFailed',
  hookTimeoutMs: 'hooks.leaseMs',
  hookWaitMs: 'hooks.waitMs',
  waitUntil: 'hooks.waitUntil',
  idempotencyStore: 'store',
};

/** Every option by group: `''` is the top level. */
const KNOWN: Readonly<Record<string, readonly string[]>> = {
  '': [
    'provider',
    'publicUrl',
    'basePath',
    'allowedOrigins',
    'maxBodyBytes',
    'resultPages',
    'resolveCheckout',
    'authorizeCustomer',
    'hooks',
    'store',
    'rateLimit',
    'logger',
    'telemetry',
  ],
  provider: ['baseUrl', 'apiKey', 'merchantCode', 'payToEmail', 'timeoutMs', 'retries', 'fetch'],
  resultPages: ['success', 'failure', 'pending'],
  hooks: ['onPaid', 'onFailed', 'leaseMs', 'waitMs', 'waitUntil'],
  telemetry: ['tracerProvider', 'meterProvider'],
};

/**
 * Refuses, by name, an option of the earlier flat shape (saying where it moved) or one this
 * handler does not know (a typo would otherwise be a setting silently ignored).
 */
function refuseUnknown(options: object): void {
  for (const [group, names] of Object.entries(KNOWN)) {
    const value: unknown = group === '' ? options : (options as Record<string, unknown>)[group];
    if (typeof value !== 'object' || value === null) continue;
    for (const name of Object.keys(value)) {
      if (names.includes(name)) continue;
      const path = group === '' ? name : `${group}.${name}`;
      const moved = group === '' ? MOVED[name] : undefined;
      throw new TypeError(
        moved === undefined
          ? `createPaymentHandler: unknown option ${path}; ${group || 'the options'} takes ${names.join(', ')}`
          : `createPaymentHandler: the option ${name} has moved; pass it as ${moved}`,
      );
    }
  }
}

function milliseconds(name: string, value: number, min: number): number {
  if (!Number.isFinite(value) || value < min) {
    throw new TypeError(
      `${name} must be ${min === 0 ? 'zero or a positive' : 'a positive'} number of milliseconds, got ${String(value)}`,
    );
  }
  return Math.ceil(value);
}

function absoluteUrl(name: string, value: unknown): string {
  try {
    return new URL(String(value)).href.replace(/\/+$/, '');
  } catch {
    throw new TypeError(`${name} must be an absolute URL, got ${JSON.stringify(value)}`);
  }
}

export function resolveOptions(options: PaymentHandlerOptions): HandlerConfig {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError('createPaymentHandler needs an options object');
  }
  refuseUnknown(options);
  const provider = options.provider;
  if (typeof provider !== 'object' || provider === null) {
    throw new TypeError('provider is required: { baseUrl, apiKey, merchantCode }');
  }
  if (!provider.merchantCode) throw new TypeError('provider.merchantCode is required');
  if (typeof options.resolveCheckout !== 'function') {
    throw new TypeError(
      'resolveCheckout is required: the server, not the browser, sets the amount',
    );
  }
  if (!Array.isArray(options.allowedOrigins) || options.allowedOrigins.length === 0) {
    throw new TypeError('allowedOrigins must list the origins of the pages that show the widget');
  }
  const pages = options.resultPages;
  if (typeof pages !== 'object' || pages === null || !pages.success || !pages.failure) {
    throw new TypeError(
      'resultPages is required: { success, failure, pending? }, the pages GET /return sends shoppers to',
    );
  }
  const basePath = (options.basePath ?? '/payments').replace(/\/+$/, '');
  if (basePath !== '' && !basePath.startsWith('/')) {
    throw new TypeError(`basePath must start with /, got ${JSON.stringify(options.basePath)}`);
  }
  const hooks = options.hooks ?? {};
  const leaseMs = milliseconds('hooks.leaseMs', hooks.leaseMs ?? LEASE_MS, 1);
  const waitMs = milliseconds('hooks.waitMs', hooks.waitMs ?? 0, 0);
  const apiKey = provider.apiKey;
  // Last line of defence: no text we did not write ourselves goes out unchecked.
  const redact = (text: string) =>
    apiKey && text.includes(apiKey) ? text.split(apiKey).join('[redacted]') : text;
  const logger = options.logger ?? consoleLogger();
  return {
    options,
    provider,
    hooks,
    basePath,
    publicUrl: absoluteUrl('publicUrl', options.publicUrl),
    allowedOrigins: new Set(
      options.allowedOrigins.map((origin) => new URL(absoluteUrl('allowedOrigins', origin)).origin),
    ),
    maxBodyBytes: options.maxBodyBytes ?? MAX_BODY_BYTES,
    resultPages: { ...pages, pending: pages.pending ?? pages.failure },
    leaseMs,
    // Never past the claim's lease: by then the claim may be taken over.
    waitMs: Math.min(waitMs, leaseMs),
    redact,
    log(entry) {
      if (logger === undefined) return;
      const safe: LogEntry = { ...entry };
      for (const [key, value] of Object.entries(safe)) {
        if (typeof value === 'string') safe[key] = redact(value);
      }
      try {
        logger(safe);
      } catch {
        // A broken logger must not break payments.
      }
    },
  };
}
