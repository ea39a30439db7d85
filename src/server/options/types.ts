/**
 * The handler's options as a merchant writes them, grouped by concern as a merchant reads
 * them: how to reach the provider, where the handler is mounted and who may call it, where
 * shoppers land, what the merchant's server decides, the hooks, the shared store, the limits,
 * the logger and where telemetry goes. Types only: options/index.ts resolves them.
 */
import type { CheckoutPurpose } from '../../schemas/index.ts';
import type { HookRun } from '../outcomes/done.ts';
import type { PageViolation } from '../page/violations.ts';
import type { PaymentStore, StoreParts } from '../store/types.ts';
import type { TelemetryOptions } from '../telemetry/options.ts';
import type { FailedCheckout, Logger, PaidCheckout } from '../types.ts';
import type { RateLimitOptions } from './rate-limit.ts';

/** What the merchant's server decides about an order. */
export interface ResolvedCheckout {
  /** In major units, e.g. 10.5 for 10.50 EUR; rounded to the cent (`0.1 * 3` is refused). */
  amount: number;
  /** ISO 4217, e.g. `EUR`. */
  currency: string;
  description?: string;
  /** The checkout_reference; unique per checkout. Default: a random UUID. */
  reference?: string;
  /** Ties the checkout (and a card saved with it) to a provider customer. */
  customerId?: string;
  /** `SETUP_RECURRING_PAYMENT`: the checkout saves the card to `customerId`, which it needs. */
  purpose?: CheckoutPurpose;
  /** Whether to set `redirect_url` (3DS as a full-page redirect, APMs possible). Default true. */
  redirect?: boolean;
  /** ISO 8601; the checkout must be processed before then. */
  validUntil?: string;
  /**
   * Where this checkout's full-page flows (3DS as a full page, iDEAL, Bancontact, BLIK) come
   * back to, with `?checkout_id=` appended, instead of `resultPages`: a site path
   * (`/orders/42`) or a URL on one of `allowedOrigins`. Anything else is refused when the
   * checkout is resolved (500 `INVALID_RESOLVED_CHECKOUT`), never followed. The page confirms
   * the outcome through `GET /checkouts/:id`.
   */
  resultPage?: string;
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
   * never delays the answer the shopper waits for. With the claims in your database
   * (`createPostgresStore`), `await run.done(tx)` inside your order's transaction makes the
   * order and the done mark commit together: at most one run's transaction commits, whatever
   * the lease (docs/stores.md).
   */
  onPaid?(checkout: PaidCheckout, run: HookRun): unknown;
  /** Runs once per checkout that reached FAILED or EXPIRED; off the shopper's path too; `run` as for `onPaid`. */
  onFailed?(checkout: FailedCheckout, run: HookRun): unknown;
  /**
   * Told of each distinct violation on the merchant's payment pages, once a day: what their
   * Content-Security-Policy blocked (a script injected into the page, say) and any file of the
   * widget whose bytes were not the ones built, which it refused to run. Reports reach the
   * handler's `POST /reports` (`pageSecurityHeaders()` points the page's policy there). For
   * alerts (PCI DSS 11.6.1): a page that changed without you is a page to look at now. What
   * it throws is logged; the report is not sent again.
   */
  onPageViolation?(report: PageViolation): unknown;
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

/** What `createPaymentHandler()` takes; docs/server.md has each option at length. */
export interface PaymentHandlerOptions {
  /** How the handler reaches the provider. */
  provider: ProviderOptions;
  /**
   * Absolute URL of the mount as the browser and the provider reach it, e.g.
   * `https://shop.example/payments`. Checkouts get `${publicUrl}/return` as
   * redirect_url and `${publicUrl}/webhook` as return_url.
   */
  publicUrl: string;
  /**
   * Mount path the routes are relative to: the path of `publicUrl` (its default), or the end
   * of it a gateway passes on (`/payments` of a REST API's `.../prod/payments`).
   */
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
  /**
   * Whether the request comes from the shopper of the basket `reference` names (the
   * `reference` your `resolveCheckout` returned), asked before `POST /checkouts/:id/retry`
   * answers or makes that basket's next checkout: false is 403 naming `id`. Never asked about
   * a checkout made without a `reference`: the handler named that basket itself (and asks
   * you when `store` cannot say so). Without it a failed checkout's id is enough, and a
   * result page's link carries it.
   */
  authorizeBasket?(request: Request, reference: string): boolean | Promise<boolean>;
  /** `onPaid`, `onFailed`, and how they run. */
  hooks?: HookOptions;
  /**
   * The state instances share: hook claims, watched checkouts, rate counters, baskets'
   * records. Default: this process's memory (`createMemoryStore()`), right for one instance;
   * several instances share one, e.g. `createPostgresStore(pool)` or `createRedisStore(client)`.
   * Or its parts from different stores: `{ claims, watch?, counters?, records? }` (a part
   * left out is kept in this process's memory, or not at all for `watch`).
   */
  store?: PaymentStore | StoreParts;
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
   * Without it, warnings and errors go to the console, each problem once a minute at most;
   * its next line names the checkouts of the lines held back.
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
