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
  private resolve_!: (outcome: Outcome) => void;
  private reject_!: (error: unknown) => void;
  private timer_: ReturnType<typeof setTimeout> | undefined;
  private delay_: number;
  private readonly deadline_: number;
  private inFlight_ = false;
  private queued_ = false;
  private stopped_ = false;
  private lastCheckout_: CheckoutView | undefined;
  private lastError_: unknown;

  constructor(
    private readonly confirm_: () => Promise<CheckoutView>,
    private readonly schedule_: PollSchedule = DEFAULT_POLL,
  ) {
    this.delay_ = schedule_.firstMs;
    this.deadline_ = Date.now() + schedule_.totalMs;
    this.result = new Promise<Outcome>((resolve, reject) => {
      this.resolve_ = resolve;
      this.reject_ = reject;
    });
  }

  start(): void {
    this.arm_();
  }

  nudge(): void {
    if (this.stopped_) return;
    clearTimeout(this.timer_);
    void this.tick_();
  }

  stop(): void {
    this.stopped_ = true;
    clearTimeout(this.timer_);
  }

  private arm_(): void {
    const wait = Math.max(0, Math.min(this.delay_, this.deadline_ - Date.now()));
    this.delay_ = Math.min(this.delay_ * SLOWDOWN, this.schedule_.maxMs);
    this.timer_ = setTimeout(() => void this.tick_(), wait);
  }

  private async tick_(): Promise<void> {
    if (this.inFlight_) {
      this.queued_ = true;
      return;
    }
    this.inFlight_ = true;
    try {
      const checkout = await this.confirm_();
      if (this.stopped_) return;
      this.lastCheckout_ = checkout;
      if (isFinal(checkout)) {
        this.stop();
        this.resolve_({ kind: 'final', checkout });
        return;
      }
    } catch (error) {
      // A failed confirmation is retried on the next tick: one network blip
      // must not turn a payment the shopper completed into an error.
      this.lastError_ = error;
    } finally {
      this.inFlight_ = false;
    }
    if (this.stopped_) return;
    if (this.queued_) {
      this.queued_ = false;
      void this.tick_();
    } else if (Date.now() >= this.deadline_) {
      this.stop();
      if (this.lastCheckout_ !== undefined) {
        this.resolve_({ kind: 'pending', checkout: this.lastCheckout_ });
      } else {
        this.reject_(this.lastError_);
      }
    } else {
      this.arm_();
    }
  }
}
