/**
 * The handler's options: what a merchant passes to `createPaymentHandler`, and the checked,
 * defaulted form the routes work with (including the logger that never lets the key out).
 */
import type { Checkout, CheckoutPurpose } from '../schemas/index.ts';
import type { IdempotencyStore } from './idempotency.ts';
import type { RateLimitOptions } from './rate-limit.ts';

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

export interface LogEntry {
  level: 'info' | 'warn' | 'error';
  message: string;
  [field: string]: unknown;
}

export interface PaymentHandlerOptions {
  /** Provider base URL (https, or http on a loopback host such as the sandbox). */
  baseUrl: string;
  /** Secret provider key. Never leaves this server except towards `baseUrl`. */
  apiKey: string;
  merchantCode: string;
  /** The merchant user receiving the payments, if the account has several. */
  payToEmail?: string;
  /** Mount path the routes are relative to. Default `/payments`. */
  basePath?: string;
  /**
   * Absolute URL of the mount as the browser and the provider reach it, e.g.
   * `https://shop.example/payments`. Checkouts get `${publicUrl}/return` as
   * redirect_url and `${publicUrl}/webhook` as return_url.
   */
  publicUrl: string;
  /**
   * Turns the browser's `order` into amount and currency. The only source of
   * the amount: nothing in a request body can change it. Throw a
   * `PaymentHandlerError` (e.g. 400) to refuse an order.
   */
  resolveCheckout(order: unknown, request: Request): ResolvedCheckout | Promise<ResolvedCheckout>;
  /**
   * Runs once per checkout that reached PAID, whichever report (webhook, return page, the
   * widget's confirmation, `reconcile()`) sees it first. Off the shopper's path: a slow hook
   * never delays the answer the shopper waits for.
   */
  onPaid?(checkout: Checkout): unknown;
  /** Runs once per checkout that reached FAILED or EXPIRED; off the shopper's path too. */
  onFailed?(checkout: Checkout): unknown;
  /**
   * Whether the request may use this provider customer's saved cards (list
   * them, pay with their tokens). Without it, every customer route is refused.
   */
  authorizeCustomer?(request: Request, customerId: string): boolean | Promise<boolean>;
  /** Origins allowed to create and process checkouts, e.g. `['https://shop.example']`. */
  allowedOrigins: string[];
  /** Where `/return` sends the user after a payment; `?checkout_id=` is appended. */
  successUrl: string;
  /** Where `/return` sends the user after a failed or expired payment. */
  failureUrl: string;
  /**
   * Where `/return` sends the user when the outcome is not final yet (an
   * abandoned bank page) or could not be read. Default: `failureUrl`, so the
   * user can try again. The page should confirm via `GET /checkouts/:id`.
   */
  pendingUrl?: string;
  /**
   * Where the hooks' claims live. Default: this process's memory, right for one instance;
   * several instances share one, e.g. `createRedisIdempotencyStore(client)`.
   */
  idempotencyStore?: IdempotencyStore;
  /**
   * How long a hook's claim holds while the hook runs: other reports of the checkout do
   * not run it meanwhile (the webhook answers 503 so the provider delivers again). A claim
   * whose holder died (a crash, a deploy) is taken over after this. Keep it above the
   * slowest `onPaid`/`onFailed`: a hook that outlives it may run a second time alongside.
   * Default 30 000 ms.
   */
  hookTimeoutMs?: number;
  /**
   * How long `PUT` and `GET /checkouts/:id` and `GET /return` may wait for the outcome hook
   * they started before answering. Default 0: the shopper sees the provider's answer at once
   * and the hook runs in the background (under the same claim, so still once). Set it, up to
   * a few seconds, only when the shop's result page needs the order fulfilled first; a hook
   * slower than this still finishes in the background. `POST /webhook` always waits.
   */
  hookWaitMs?: number;
  /**
   * Keeps a background hook alive on runtimes that stop a request's work once its answer is
   * sent: pass the platform's `waitUntil` (Vercel's `waitUntil` from `@vercel/functions`,
   * Next.js's `after` from `next/server`, Cloudflare's `waitUntil` from `cloudflare:workers`).
   * On Cloudflare Workers the handler also finds it by itself when it is the Worker's
   * `fetch(request, env, ctx)`. On Node, Bun and Deno nothing is needed. Whatever is still
   * cut off is caught by the webhook's redelivery and by `reconcile()`.
   */
  waitUntil?: (promise: Promise<unknown>) => void;
  /** Receives one entry per request and per problem; never bodies, card data or the key. */
  logger?: (entry: LogEntry) => void;
  /** Per provider call. Default 10 000 ms. */
  timeoutMs?: number;
  /** Extra attempts for provider GETs. Default 2. */
  retries?: number;
  /**
   * Calls the provider through this `fetch` instead of the built-in keep-alive client
   * (tests, proxies, instrumentation). Timeouts, retries and the PUT rule stay the same.
   */
  fetch?: typeof fetch;
  /** Default 16 KiB. */
  maxBodyBytes?: number;
  /**
   * The card-testing defence: how many checkouts one client may create and payments it may
   * attempt per window, and how many attempts one checkout may take. On by default; over a
   * limit the answer is 429 `TOO_MANY_REQUESTS` with `Retry-After`, before any provider call.
   * Counted in `idempotencyStore`, so shared by the instances that share it. `false` switches
   * every limit off (do so only when something in front of the handler limits these routes).
   */
  rateLimit?: RateLimitOptions | false;
}

/** A hook's claim holds this long by default. */
const HOOK_TIMEOUT_MS = 30_000;

/** Bodies the widget sends are a few hundred bytes; 16 KiB leaves room and stops floods. */
const MAX_BODY_BYTES = 16 * 1024;

/** The options after checks and defaults, plus the two helpers every route shares. */
export interface HandlerConfig {
  options: PaymentHandlerOptions;
  basePath: string;
  publicUrl: string;
  allowedOrigins: ReadonlySet<string>;
  maxBodyBytes: number;
  pendingUrl: string;
  hookTimeoutMs: number;
  hookWaitMs: number;
  /** Replaces the API key wherever it appears in a text we did not write. */
  redact(text: string): string;
  /** The merchant's logger with every string redacted; never throws. */
  log(entry: LogEntry): void;
}

function normaliseOrigin(origin: string): string {
  return new URL(origin).origin;
}

export function resolveOptions(options: PaymentHandlerOptions): HandlerConfig {
  if (!options.merchantCode) throw new TypeError('merchantCode is required');
  if (typeof options.resolveCheckout !== 'function') {
    throw new TypeError(
      'resolveCheckout is required: the server, not the browser, sets the amount',
    );
  }
  if (!Array.isArray(options.allowedOrigins) || options.allowedOrigins.length === 0) {
    throw new TypeError('allowedOrigins must list the origins of the pages that show the widget');
  }
  const basePath = (options.basePath ?? '/payments').replace(/\/+$/, '');
  if (basePath !== '' && !basePath.startsWith('/')) {
    throw new TypeError('basePath must start with /');
  }
  const hookTimeoutMs = options.hookTimeoutMs ?? HOOK_TIMEOUT_MS;
  if (!Number.isFinite(hookTimeoutMs) || hookTimeoutMs < 1) {
    throw new TypeError('hookTimeoutMs must be a positive number of milliseconds');
  }
  const hookWaitMs = options.hookWaitMs ?? 0;
  if (!Number.isFinite(hookWaitMs) || hookWaitMs < 0) {
    throw new TypeError('hookWaitMs must be zero or a positive number of milliseconds');
  }
  const apiKey = options.apiKey;
  // Last line of defence: no text we did not write ourselves goes out unchecked.
  const redact = (text: string) =>
    apiKey && text.includes(apiKey) ? text.split(apiKey).join('[redacted]') : text;
  const logger = options.logger;
  return {
    options,
    basePath,
    publicUrl: new URL(options.publicUrl).href.replace(/\/+$/, ''),
    allowedOrigins: new Set(options.allowedOrigins.map(normaliseOrigin)),
    maxBodyBytes: options.maxBodyBytes ?? MAX_BODY_BYTES,
    pendingUrl: options.pendingUrl ?? options.failureUrl,
    hookTimeoutMs: Math.ceil(hookTimeoutMs),
    // Never past the claim's lease: by then the claim may be taken over.
    hookWaitMs: Math.min(Math.ceil(hookWaitMs), Math.ceil(hookTimeoutMs)),
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
