// The sandbox's one clock. Everything time-based reads it: checkout dates and `valid_until`,
// pairing codes and the reader start window, transaction, boleto and payout dates, webhook
// attempt times. A developer moves it forward (`POST /sandbox/clock`) to see a checkout
// expire or a pairing code lapse without waiting; `/sandbox/reset` puts it back.
//
// Timers that fire by themselves (webhook retries and held deliveries, a reader checkout's
// start window) are set on this clock too: one fires when real time reaches it or as soon as
// the clock is moved past it, whichever comes first, so a test that moves the clock never
// sleeps. The clock only ever moves forward.
//
// How far it is ahead of real time is state: the store keeps it (and so the data file), and
// moving the clock is a change like any other, which the dashboard hears about from the store.

export interface ClockTimer {
  /** Clock time (ms since the epoch) at which it fires. */
  readonly due: number;
}

interface Armed extends ClockTimer {
  fire: () => void;
  handle: ReturnType<typeof setTimeout> | undefined;
  unref: boolean;
}

/** Where the clock keeps its offset: the store. */
export interface ClockState {
  readonly clockOffsetMs: number;
  setClockOffset(offsetMs: number): void;
}

export class Clock {
  readonly #state: ClockState;
  readonly #timers = new Set<Armed>();

  constructor(state: ClockState) {
    this.#state = state;
  }

  /** The sandbox's now, in ms since the epoch. */
  now(): number {
    return Date.now() + this.#state.clockOffsetMs;
  }

  /** The sandbox's now (or `ms`) as an ISO 8601 timestamp. */
  iso(ms: number = this.now()): string {
    return new Date(ms).toISOString();
  }

  /** How far the clock has been moved ahead of real time. */
  get offsetMs(): number {
    return this.#state.clockOffsetMs;
  }

  /** Moves the clock forward; every timer now due fires, earliest first. */
  advance(ms: number): void {
    if (!(ms >= 0)) throw new RangeError('the clock only moves forward');
    this.#state.setClockOffset(this.#state.clockOffsetMs + ms);
    this.#settle();
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

  /** Cancels every timer (a reset, which puts the offset back in the store, or closing). */
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
    // Node's timers only: in a browser (the site's worker) the handle is a number.
    if (timer.unref) (timer.handle as { unref?: () => void }).unref?.();
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
