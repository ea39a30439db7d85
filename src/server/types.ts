/**
 * The words every part of the handler shares: a log entry, what a request carries through
 * the app, what a provider call carries, and the checkouts the hooks receive. A leaf: it
 * imports nothing of the handler, so any module may import it without making a cycle.
 */

import type { Checkout, CheckoutProcessBody } from '../schemas/index.ts';

/** The checkout `onPaid` receives: the provider's, read back by the handler; always with its id. */
export type PaidCheckout = Checkout & { id: string; status: 'PAID' };

/** The checkout `onFailed` receives: it failed, or expired unpaid. */
export type FailedCheckout = Checkout & { id: string; status: 'FAILED' | 'EXPIRED' };

/** One line for the merchant's `logger`: never a body, card data, personal details or the key. */
export interface LogEntry {
  level: 'info' | 'warn' | 'error';
  message: string;
  /** The `X-Request-Id` of the request this entry is about, when there is one. */
  requestId?: string | undefined;
  /** The OpenTelemetry trace this entry was written in, when one is being recorded. */
  traceId?: string | undefined;
  /** The span it was written in (a request's, a hook's). */
  spanId?: string | undefined;
  /** A stable name for the kind of problem (`forbidden-origin`), when the entry is one. */
  problem?: string | undefined;
  [field: string]: unknown;
}

export type Logger = (entry: LogEntry) => void;

/** A platform's per-request context, as Cloudflare Workers pass it to `fetch`. */
export interface PlatformContext {
  waitUntil(promise: Promise<unknown>): void;
}

/** What the handler's Hono app knows of each request besides the request itself. */
export interface HandlerEnv {
  Bindings: {
    /** The runtime's second argument (Node's `{ incoming }`, Bun's server, Deno's info). */
    runtime: unknown;
    /** Keeps work alive after the answer: the merchant's `hooks.waitUntil`, or the platform's. */
    waitUntil: ((promise: Promise<unknown>) => void) | undefined;
  };
  Variables: {
    /** This request's `X-Request-Id`, also sent to the provider with every call it makes. */
    requestId: string;
    /**
     * The checkout the request names (`:id`, `?checkout_id`, a webhook's `id`), checked to be
     * a checkout id, or the one `POST /checkouts` answers: its server span records it.
     */
    checkoutId: string;
    /** `POST /checkouts`: the body's `order`, for the merchant's `resolveCheckout`. */
    order: unknown;
    /** `PUT /checkouts/:id`: the process body, checked, its saved card the shopper's own. */
    payment: CheckoutProcessBody;
  };
}

/** What a caller may add to one call of the provider client. */
export interface CallContext {
  /** The id of the request this call serves (the handler passes its `X-Request-Id`). */
  requestId?: string | undefined;
}
