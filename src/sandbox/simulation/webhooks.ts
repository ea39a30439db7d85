// Outgoing notifications: a checkout's CHECKOUT_STATUS_CHANGED and a reader checkout's result,
// POSTed as JSON to the merchant's URL and retried until a 2xx or `attempts` run out: after
// the answer's `Retry-After` (seconds or a date) when it has one, else with exponential
// backoff, each wait at most `maxDelayMs`. The defaults span about a minute, past the
// handler's default 30 s hook lease: a claim whose instance died is taken over by a retry,
// and the handler's Retry-After says when its lease ends. Delivery runs off the request path
// so a slow or dead merchant endpoint never delays an API response.
//
// Every delivery is a record of the store (the last MAX_DELIVERIES) with each attempt's time,
// answer or error and duration: `GET /sandbox/webhook-deliveries` and the dashboard show them,
// any can be sent again (`replay`), and a restart on the data file finds them and sends what
// was still pending when it is due. Webhook faults (faults.ts) make the hard cases happen:
//   drop       never sent (the delivery's state is `dropped`)
//   duplicate  sent twice
//   delay      held `delayMs` of sandbox time before its first attempt
//   reorder    held until the next delivery has been sent (or dropped), so it arrives after it
// Waits (backoff, a delay fault) are on the sandbox clock, so moving the clock sends what is
// due at once. What is only in flight (timers, held deliveries) lives here, not in the store.

import type { DeliveryAttempt, DeliveryRecord, Frozen } from '../state/records.ts';
import type { Store } from '../state/store.ts';
import type { Clock, ClockTimer } from './clock.ts';
import { takeWebhookFault } from './faults.ts';

export interface WebhookOptions {
  /** Total tries including the first; default 8 (the last about 61 s after the first). */
  attempts?: number;
  /** Delay before the first retry; doubles each time. Default 500 ms (shortened for a sandbox). */
  initialDelayMs?: number;
  /** Upper bound of one delay, an answer's `Retry-After` included; default 30 s. */
  maxDelayMs?: number;
  /**
   * Sends each delivery through this `fetch` instead of the global one: a host that runs the
   * merchant's handler beside the sandbox without a network between them (a Service Worker,
   * whose own `fetch` to its origin would go past itself to the server) hands it the handler.
   */
  fetch?: typeof fetch;
}

/** One request may hang; this bounds how long a delivery attempt holds a socket (real time). */
const ATTEMPT_TIMEOUT_MS = 5_000;
/** Enough history to look back through a test run; older deliveries are forgotten. */
const MAX_DELIVERIES = 500;

interface InFlight {
  readonly body: string;
  /** Held (`reorder`) deliveries that go out once this one has been sent. */
  waiting: string[];
  sent: boolean;
}

export class Webhooks {
  readonly #attempts: number;
  readonly #initialDelayMs: number;
  readonly #maxDelayMs: number;
  readonly #fetch: typeof fetch;
  readonly #store: Store;
  readonly #clock: Clock;
  readonly #log: (line: string) => void;
  readonly #timers = new Set<ClockTimer>();
  readonly #inFlight = new Set<AbortController>();
  /** Per delivery id: what sending it needs beyond its record. */
  #queue = new Map<string, InFlight>();
  /** `reorder` deliveries waiting for the next delivery to exist. */
  #heldForNext: string[] = [];
  /** Bumped by clear(): an attempt that was under way when it ran must not go on. */
  #generation = 0;
  #closed = false;

  constructor(options: WebhookOptions, store: Store, clock: Clock, log: (line: string) => void) {
    this.#attempts = Math.max(1, options.attempts ?? 8);
    this.#initialDelayMs = Math.max(0, options.initialDelayMs ?? 500);
    this.#maxDelayMs = Math.max(this.#initialDelayMs, options.maxDelayMs ?? 30_000);
    this.#fetch = options.fetch ?? ((input, init) => fetch(input, init));
    this.#store = store;
    this.#clock = clock;
    this.#log = log;
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
  list(): Frozen<DeliveryRecord>[] {
    return this.#store.list('deliveries').reverse();
  }

  /** Sends a recorded delivery's payload again, as a new delivery; undefined when unknown. */
  replay(id: string): Frozen<DeliveryRecord> | undefined {
    const original = this.#store.get('deliveries', id);
    if (!original || this.#closed) return undefined;
    return this.#enqueue(original.url, original.payload, { replay_of: id });
  }

  /**
   * After a restart on the data file: what was pending goes out again. A held `reorder`
   * delivery waits for the next one again; a retry waits until its `nextAt`, a `delay` one
   * until its `due_at` (sandbox time, kept with the clock's offset), at once if that has
   * passed; anything else goes at once.
   */
  resume(): void {
    for (const delivery of this.#store.values('deliveries')) {
      if (delivery.state !== 'pending') continue;
      this.#queue.set(delivery.id, {
        body: JSON.stringify(delivery.payload),
        waiting: [],
        sent: false,
      });
      if (delivery.fault === 'reorder' && delivery.attempts.length === 0) {
        this.#heldForNext.push(delivery.id);
      } else {
        const at = delivery.attempts.at(-1)?.nextAt ?? delivery.due_at;
        const due = at === undefined ? 0 : Date.parse(at) - this.#clock.now();
        this.#attemptAfter(delivery.id, due);
      }
    }
  }

  #record(url: string, payload: unknown, extra: Partial<DeliveryRecord>): Frozen<DeliveryRecord> {
    return this.#store.transact(() => {
      const delivery = this.#store.insert('deliveries', {
        url,
        payload,
        state: 'pending',
        attempts: [],
        created_at: this.#clock.iso(),
        ...extra,
      });
      if (this.#store.count('deliveries') > MAX_DELIVERIES) {
        const oldest = this.#store.values('deliveries').next().value;
        if (oldest !== undefined) {
          this.#store.remove('deliveries', oldest.id);
          this.#queue.delete(oldest.id);
        }
      }
      this.#queue.set(delivery.id, { body: JSON.stringify(payload), waiting: [], sent: false });
      return delivery;
    });
  }

  #enqueue(
    url: string,
    payload: unknown,
    extra: Partial<DeliveryRecord> = {},
  ): Frozen<DeliveryRecord> {
    return this.#store.transact(() => {
      const fault = takeWebhookFault(this.#store);
      const now = this.#clock.now();
      const delivery = this.#record(url, payload, {
        ...extra,
        ...(fault && { fault: fault.kind }),
        ...(fault?.kind === 'drop' && { state: 'dropped' as const }),
        // Recorded, as a retry's nextAt is, so that a restart keeps to it (resume); from the
        // same reading of the clock as its creation, so it is exactly the delay after it.
        ...(fault?.kind === 'delay' && {
          created_at: this.#clock.iso(now),
          due_at: this.#clock.iso(now + fault.delayMs),
        }),
      });
      // Held deliveries go out after this one, whatever happens to it.
      const queued = this.#queue.get(delivery.id)!;
      queued.waiting = this.#heldForNext;
      this.#heldForNext = [];
      switch (fault?.kind) {
        case 'drop':
          this.#log(`webhook ${url} dropped by a fault`);
          this.#markSent(delivery.id);
          break;
        case 'duplicate': {
          const copy = this.#record(url, payload, {
            fault: 'duplicate',
            duplicate_of: delivery.id,
          });
          this.#attemptAfter(delivery.id, 0);
          this.#attemptAfter(copy.id, 0);
          break;
        }
        case 'delay':
          this.#attemptAfter(delivery.id, fault.delayMs);
          break;
        case 'reorder':
          this.#heldForNext.push(delivery.id);
          break;
        default:
          this.#attemptAfter(delivery.id, 0);
      }
      return delivery;
    });
  }

  #attemptAfter(id: string, delayMs: number): void {
    const timer = this.#clock.setTimer(() => {
      this.#timers.delete(timer);
      void this.#attempt(id);
    }, delayMs);
    this.#timers.add(timer);
  }

  /** Its first attempt is over (or it was dropped): what was held behind it goes out now. */
  #markSent(id: string): void {
    const queued = this.#queue.get(id);
    if (queued === undefined || queued.sent) return;
    queued.sent = true;
    for (const held of queued.waiting) this.#attemptAfter(held, 0);
    queued.waiting = [];
  }

  async #attempt(id: string): Promise<void> {
    const delivery = this.#store.get('deliveries', id);
    const queued = this.#queue.get(id);
    if (this.#closed || delivery === undefined || queued === undefined) return;
    const generation = this.#generation;
    const number = delivery.attempts.length + 1;
    const at = this.#clock.iso();
    const started = performance.now();
    const controller = new AbortController();
    this.#inFlight.add(controller);
    const timeout = setTimeout(() => controller.abort(), ATTEMPT_TIMEOUT_MS);
    const attempt: DeliveryAttempt = { at, durationMs: 0 };
    let asked: number | undefined;
    try {
      const res = await this.#fetch(delivery.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': 'payment-sandbox-webhooks' },
        body: queued.body,
        signal: controller.signal,
        redirect: 'manual',
      });
      await res.body?.cancel();
      attempt.status = res.status;
      const retryAfter = res.headers.get('retry-after');
      if (retryAfter !== null && !res.ok) {
        attempt.retryAfter = retryAfter;
        // A date is on the merchant's clock: its answer's Date, else real time (not the sandbox's).
        const now = Date.parse(res.headers.get('date') ?? '');
        asked = askedWait(retryAfter, now || this.#clock.now() - this.#clock.offsetMs);
      }
    } catch (error) {
      attempt.error = describeFailure(error, controller.signal.aborted);
    } finally {
      clearTimeout(timeout);
      this.#inFlight.delete(controller);
    }
    // Reset, closed, or pushed out by newer deliveries while the request was out.
    if (this.#closed || generation !== this.#generation || !this.#store.has('deliveries', id)) {
      return;
    }
    attempt.durationMs = Math.round((performance.now() - started) * 10) / 10;
    const ok = attempt.status !== undefined && attempt.status >= 200 && attempt.status < 300;
    const exhausted = !ok && number >= this.#attempts;
    const wait = Math.min(asked ?? this.#initialDelayMs * 2 ** (number - 1), this.#maxDelayMs);
    // Due `wait` after the answer: its start on the clock plus how long it took (real time), so
    // the record always says the wait it was given, and a clock moved while the request was
    // out counts toward the wait (the timer below is set for the same moment).
    const due = Math.round(Date.parse(at) + attempt.durationMs + wait);
    if (!ok && !exhausted) attempt.nextAt = this.#clock.iso(due);
    this.#store.update('deliveries', id, (d) => {
      d.attempts.push(attempt);
      if (ok) d.state = 'delivered';
      else if (exhausted) d.state = 'failed';
    });
    this.#log(
      `webhook ${delivery.url} attempt ${number}/${this.#attempts}: ${attempt.status ?? attempt.error}`,
    );
    if (!ok && !exhausted) this.#attemptAfter(id, due - this.#clock.now());
    this.#markSent(id);
  }

  /**
   * Drops queued retries and aborts attempts in flight (a reset, which empties the store's
   * deliveries and webhook faults itself).
   */
  clear(): void {
    this.#generation += 1;
    for (const timer of this.#timers) this.#clock.clearTimer(timer);
    this.#timers.clear();
    for (const c of this.#inFlight) c.abort();
    this.#inFlight.clear();
    this.#queue = new Map();
    this.#heldForNext = [];
  }

  close(): void {
    this.#closed = true;
    this.clear();
  }
}

/** The wait a `Retry-After` asks for (seconds, or an HTTP date after `now`), in ms. */
function askedWait(value: string, now: number): number | undefined {
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const at = /[a-z]/i.test(value) ? Date.parse(value) : Number.NaN;
  return Number.isFinite(at) ? Math.max(0, at - now) : undefined;
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
