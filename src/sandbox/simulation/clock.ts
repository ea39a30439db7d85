// The sandbox's one clock. Everything time-based reads it: checkout dates and `valid_until`,
// pairing codes and the reader start window, transaction, boleto and payout dates, webhook
// attempt times. A developer moves it forward (`POST /sandbox/clock`) to see a checkout
// expire or a pairing code lapse without waiting; `/sandbox/reset` puts it back.
//
// Timers that fire by themselves (webhook retries and held deliveries, a reader checkout's
// start window) are set on this clock too: one fires when real time reaches it or as soon as
// the clock is moved past it, whichever comes first, so a test that moves the clock never
// sleeps. The clock only ever moves forward.

export interface ClockTimer {
  /** Clock time (ms since the epoch) at which it fires. */
  readonly due: number;
}

interface Armed extends ClockTimer {
  fire: () => void;
  handle: ReturnType<typeof setTimeout> | undefined;
  unref: boolean;
}

export class Clock {
  #offsetMs = 0;
  readonly #timers = new Set<Armed>();
  readonly #onMove: () => void;

  /** `onMove` runs after every move (persistence, the dashboard's live updates). */
  constructor(onMove: () => void = () => {}) {
    this.#onMove = onMove;
  }

  /** The sandbox's now, in ms since the epoch. */
  now(): number {
    return Date.now() + this.#offsetMs;
  }

  /** The sandbox's now (or `ms`) as an ISO 8601 timestamp. */
  iso(ms: number = this.now()): string {
    return new Date(ms).toISOString();
  }

  /** How far the clock has been moved ahead of real time. */
  get offsetMs(): number {
    return this.#offsetMs;
  }

  /** Moves the clock forward; every timer now due fires, earliest first. */
  advance(ms: number): void {
    if (!(ms >= 0)) throw new RangeError('the clock only moves forward');
    this.#offsetMs += ms;
    this.#settle();
    this.#onMove();
  }

  /** Back to real time (reset); timers are cancelled, as everything they served is gone. */
  reset(): void {
    this.cancelAll();
    this.#offsetMs = 0;
    this.#onMove();
  }

  /** Restores a moved clock (the data file); fires nothing. */
  restore(offsetMs: number): void {
    if (Number.isFinite(offsetMs) && offsetMs > 0) this.#offsetMs = offsetMs;
  }

  /**
   * Runs `fire` once `delayMs` of clock time has passed. `unref` lets the process exit
   * while it waits (a timer that only tidies up), as Node's `timer.unref()` does.
   */
  setTimer(fire: () => void, delayMs: number, { unref = false } = {}): ClockTimer {
    const timer: Armed = { due: this.now() + Math.max(0, delayMs), fire, handle: undefined, unref };
    this.#timers.add(timer);
    this.#arm(timer);
    return timer;
  }

  clearTimer(timer: ClockTimer): void {
    const armed = timer as Armed;
    if (!this.#timers.delete(armed)) return;
    clearTimeout(armed.handle);
  }

  cancelAll(): void {
    for (const timer of this.#timers) clearTimeout(timer.handle);
    this.#timers.clear();
  }

  #arm(timer: Armed): void {
    clearTimeout(timer.handle);
    // Real timers may wake a millisecond early against the wall clock: then wait again.
    timer.handle = setTimeout(
      () => (this.now() >= timer.due ? this.#fire(timer) : this.#arm(timer)),
      Math.max(0, timer.due - this.now()),
    );
    if (timer.unref) timer.handle.unref();
  }

  #fire(timer: Armed): void {
    if (!this.#timers.delete(timer)) return;
    clearTimeout(timer.handle);
    timer.fire();
  }

  /** After a move: fire what is due, in order, and re-arm the rest for their nearer time. */
  #settle(): void {
    const now = this.now();
    const due = [...this.#timers].filter((t) => t.due <= now).sort((a, b) => a.due - b.due);
    for (const timer of due) this.#fire(timer);
    for (const timer of this.#timers) this.#arm(timer);
  }
}
