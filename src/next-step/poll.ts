import type { CheckoutView, NextStepContext, Outcome } from './types.ts';

export type PollSchedule = NonNullable<NextStepContext['poll']>;

/** About 2 s, slowing to 5 s, for at most 10 minutes (a 3DS challenge rarely outlives that). */
export const DEFAULT_POLL: PollSchedule = { firstMs: 2000, maxMs: 5000, totalMs: 10 * 60 * 1000 };

const SLOWDOWN = 1.5;

export function isFinal(checkout: CheckoutView): boolean {
  return typeof checkout.status === 'string' && checkout.status !== 'PENDING';
}

/**
 * Asks the backend for the checkout until it is final or time runs out. The
 * backend's answer is the only proof of an outcome; `nudge()` (a completion
 * message from the challenge) merely asks sooner. At most one request is in
 * flight: a nudge during a request queues exactly one more.
 */
export class ConfirmLoop {
  readonly result: Promise<Outcome>;
  private resolve!: (outcome: Outcome) => void;
  private reject!: (error: unknown) => void;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private delay: number;
  private readonly deadline: number;
  private inFlight = false;
  private queued = false;
  private stopped = false;
  private lastCheckout: CheckoutView | undefined;
  private lastError: unknown;

  constructor(
    private readonly confirm: () => Promise<CheckoutView>,
    private readonly schedule: PollSchedule = DEFAULT_POLL,
  ) {
    this.delay = schedule.firstMs;
    this.deadline = Date.now() + schedule.totalMs;
    this.result = new Promise<Outcome>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
  }

  start(): void {
    this.arm();
  }

  nudge(): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    void this.tick();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  private arm(): void {
    const wait = Math.max(0, Math.min(this.delay, this.deadline - Date.now()));
    this.delay = Math.min(this.delay * SLOWDOWN, this.schedule.maxMs);
    this.timer = setTimeout(() => void this.tick(), wait);
  }

  private async tick(): Promise<void> {
    if (this.inFlight) {
      this.queued = true;
      return;
    }
    this.inFlight = true;
    try {
      const checkout = await this.confirm();
      if (this.stopped) return;
      this.lastCheckout = checkout;
      if (isFinal(checkout)) {
        this.stop();
        this.resolve({ kind: 'final', checkout });
        return;
      }
    } catch (error) {
      // A failed confirmation is retried on the next tick: one network blip
      // must not turn a payment the shopper completed into an error.
      this.lastError = error;
    } finally {
      this.inFlight = false;
    }
    if (this.stopped) return;
    if (this.queued) {
      this.queued = false;
      void this.tick();
    } else if (Date.now() >= this.deadline) {
      this.stop();
      if (this.lastCheckout !== undefined) {
        this.resolve({ kind: 'pending', checkout: this.lastCheckout });
      } else {
        this.reject(this.lastError);
      }
    } else {
      this.arm();
    }
  }
}
