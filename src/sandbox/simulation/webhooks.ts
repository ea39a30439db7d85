// Outgoing notifications: a checkout's CHECKOUT_STATUS_CHANGED and a reader checkout's result,
// POSTed as JSON to the merchant's URL and retried with exponential backoff until a 2xx or
// `attempts` run out. Delivery runs off the request path so a slow or dead merchant endpoint
// never delays an API response.
//
// Every delivery is kept as data (the last MAX_DELIVERIES, newest first) with each attempt's
// time, answer or error and duration: `GET /sandbox/webhook-deliveries` and the dashboard show
// them, and any can be sent again (`replay`). Webhook faults (webhook-faults.ts) make the
// hard cases happen on purpose. Waits (backoff, a delay fault) are on the sandbox clock, so
// moving the clock sends what is due at once.

import type { Clock, ClockTimer } from './clock.ts';
import { type WebhookFaultKind, WebhookFaultStore } from './webhook-faults.ts';

export interface WebhookOptions {
  /** Total tries including the first; default 6. */
  attempts?: number;
  /** Delay before the first retry; doubles each time. Default 500 ms (shortened for a sandbox). */
  initialDelayMs?: number;
  /** Upper bound of one delay; default 30 s. */
  maxDelayMs?: number;
}

export type DeliveryState = 'pending' | 'delivered' | 'failed' | 'dropped';

export interface DeliveryAttempt {
  /** Sandbox time the attempt started. */
  at: string;
  /** The merchant's HTTP status, when it answered. */
  status?: number;
  /** Why there was no answer: ECONNREFUSED, timeout, ... */
  error?: string;
  durationMs: number;
}

export interface Delivery {
  id: string;
  url: string;
  payload: unknown;
  state: DeliveryState;
  attempts: DeliveryAttempt[];
  created_at: string;
  /** The webhook fault that applied to it. */
  fault?: WebhookFaultKind;
  /** The delivery this one sends again (a replay). */
  replay_of?: string;
  /** The delivery this one copies (a `duplicate` fault). */
  duplicate_of?: string;
}

/** One request may hang; this bounds how long a delivery attempt holds a socket (real time). */
const ATTEMPT_TIMEOUT_MS = 5_000;
/** Enough history to look back through a test run; older deliveries are forgotten. */
export const MAX_DELIVERIES = 500;

interface Queued {
  readonly delivery: Delivery;
  readonly body: string;
  /** Held (`reorder`) deliveries that go out once this one has been sent. */
  waiting: Queued[];
  sent: boolean;
}

export class Webhooks {
  readonly faults = new WebhookFaultStore();
  readonly #attempts: number;
  readonly #initialDelayMs: number;
  readonly #maxDelayMs: number;
  readonly #clock: Clock;
  readonly #log: (line: string) => void;
  readonly #onChange: () => void;
  readonly #timers = new Set<ClockTimer>();
  readonly #inFlight = new Set<AbortController>();
  #deliveries: Queued[] = [];
  /** `reorder` deliveries waiting for the next delivery to exist. */
  #heldForNext: Queued[] = [];
  #nextId = 1;
  /** Bumped by clear(): an attempt that was under way when it ran must not go on. */
  #generation = 0;
  #closed = false;

  constructor(
    options: WebhookOptions,
    clock: Clock,
    log: (line: string) => void,
    onChange: () => void = () => {},
  ) {
    this.#attempts = Math.max(1, options.attempts ?? 6);
    this.#initialDelayMs = Math.max(0, options.initialDelayMs ?? 500);
    this.#maxDelayMs = Math.max(this.#initialDelayMs, options.maxDelayMs ?? 30_000);
    this.#clock = clock;
    this.#log = log;
    this.#onChange = onChange;
  }

  /** Queue a CHECKOUT_STATUS_CHANGED notification; never throws, never waits. */
  checkoutStatusChanged(url: string | undefined, checkoutId: string): void {
    if (!url || this.#closed) return;
    this.#enqueue(url, { event_type: 'CHECKOUT_STATUS_CHANGED', id: checkoutId });
  }

  /** Queue any JSON notification (a reader checkout's result) with the same retries. */
  send(url: string, payload: unknown): void {
    if (this.#closed) return;
    this.#enqueue(url, payload);
  }

  /** Newest first. */
  list(): Delivery[] {
    return this.#deliveries.map((q) => q.delivery);
  }

  /** Sends a recorded delivery's payload again, as a new delivery; undefined when unknown. */
  replay(id: string): Delivery | undefined {
    const original = this.#deliveries.find((q) => q.delivery.id === id);
    if (!original || this.#closed) return undefined;
    const { url, payload } = original.delivery;
    return this.#enqueue(url, payload, { replay_of: id }).delivery;
  }

  #record(url: string, payload: unknown, extra: Partial<Delivery>): Queued {
    const delivery: Delivery = {
      id: `whd_${this.#nextId++}`,
      url,
      payload,
      state: 'pending',
      attempts: [],
      created_at: this.#clock.iso(),
      ...extra,
    };
    const queued = { delivery, body: JSON.stringify(payload), waiting: [], sent: false };
    this.#deliveries.unshift(queued);
    if (this.#deliveries.length > MAX_DELIVERIES) this.#deliveries.pop();
    return queued;
  }

  #enqueue(url: string, payload: unknown, extra: Partial<Delivery> = {}): Queued {
    const queued = this.#record(url, payload, extra);
    // Held deliveries go out after this one, whatever happens to it.
    queued.waiting = this.#heldForNext;
    this.#heldForNext = [];
    const fault = this.faults.take();
    if (fault) queued.delivery.fault = fault.kind;
    switch (fault?.kind) {
      case 'drop':
        queued.delivery.state = 'dropped';
        this.#log(`webhook ${url} dropped by a fault`);
        this.#markSent(queued);
        break;
      case 'duplicate': {
        const copy = this.#record(url, payload, {
          fault: 'duplicate',
          duplicate_of: queued.delivery.id,
        });
        this.#attemptAfter(queued, 0);
        this.#attemptAfter(copy, 0);
        break;
      }
      case 'delay':
        this.#attemptAfter(queued, fault.delayMs);
        break;
      case 'reorder':
        this.#heldForNext.push(queued);
        break;
      default:
        this.#attemptAfter(queued, 0);
    }
    this.#onChange();
    return queued;
  }

  #attemptAfter(queued: Queued, delayMs: number): void {
    const timer = this.#clock.setTimer(() => {
      this.#timers.delete(timer);
      void this.#attempt(queued);
    }, delayMs);
    this.#timers.add(timer);
  }

  /** Its first attempt is over (or it was dropped): what was held behind it goes out now. */
  #markSent(queued: Queued): void {
    if (queued.sent) return;
    queued.sent = true;
    for (const held of queued.waiting) this.#attemptAfter(held, 0);
    queued.waiting = [];
  }

  async #attempt(queued: Queued): Promise<void> {
    if (this.#closed) return;
    const generation = this.#generation;
    const { delivery } = queued;
    const number = delivery.attempts.length + 1;
    const at = this.#clock.iso();
    const started = performance.now();
    const controller = new AbortController();
    this.#inFlight.add(controller);
    const timeout = setTimeout(() => controller.abort(), ATTEMPT_TIMEOUT_MS);
    const attempt: DeliveryAttempt = { at, durationMs: 0 };
    try {
      const res = await fetch(delivery.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': 'payment-sandbox-webhooks' },
        body: queued.body,
        signal: controller.signal,
        redirect: 'manual',
      });
      await res.body?.cancel();
      attempt.status = res.status;
    } catch (error) {
      attempt.error = describeFailure(error, controller.signal.aborted);
    } finally {
      clearTimeout(timeout);
      this.#inFlight.delete(controller);
    }
    if (this.#closed || generation !== this.#generation) return;
    attempt.durationMs = Math.round((performance.now() - started) * 10) / 10;
    delivery.attempts.push(attempt);
    const ok = attempt.status !== undefined && attempt.status >= 200 && attempt.status < 300;
    this.#log(
      `webhook ${delivery.url} attempt ${number}/${this.#attempts}: ${attempt.status ?? attempt.error}`,
    );
    if (ok) delivery.state = 'delivered';
    else if (number >= this.#attempts) delivery.state = 'failed';
    else {
      const delay = Math.min(this.#initialDelayMs * 2 ** (number - 1), this.#maxDelayMs);
      this.#attemptAfter(queued, delay);
    }
    this.#markSent(queued);
    this.#onChange();
  }

  /** Forget every delivery and fault; drop queued retries and abort attempts in flight (reset). */
  clear(): void {
    this.#generation += 1;
    for (const timer of this.#timers) this.#clock.clearTimer(timer);
    this.#timers.clear();
    for (const c of this.#inFlight) c.abort();
    this.#inFlight.clear();
    this.#deliveries = [];
    this.#heldForNext = [];
    this.faults.clear();
    this.#onChange();
  }

  close(): void {
    this.#closed = true;
    this.clear();
  }
}

/** What went wrong, without the URL or anything the merchant sent back. */
function describeFailure(error: unknown, timedOut: boolean): string {
  if (timedOut) return 'timeout';
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | undefined)?.cause;
  if (typeof cause?.code === 'string') return cause.code;
  // fetch refuses some URLs itself ("bad port"): its reason is more use than "TypeError".
  if (typeof cause?.message === 'string') return cause.message.slice(0, 100);
  return error instanceof Error ? error.name : 'error';
}
