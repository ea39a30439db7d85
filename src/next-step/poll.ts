import type { CheckoutView, NextStepContext, Outcome } from './types.ts';

type PollSchedule = NonNullable<NextStepContext['poll']>;

/**
 * About 2 s, slowing to 5 s over the first half minute, for at most 15 minutes (issuers and
 * banks keep their pages open for 10 to 15): an approval elsewhere (the bank's app on a
 * phone) shows within seconds.
 */
const DEFAULT_POLL: PollSchedule = { firstMs: 2000, maxMs: 5000, totalMs: 15 * 60 * 1000 };

/** How much longer each wait is than the one before. */
const BACK_OFF = 1.1;

interface ConfirmLoop {
  /** The final checkout, or the last one read (pending) when time ran out. */
  readonly result: Promise<Outcome>;
  start(): void;
  /** Asks now rather than at the next tick. */
  nudge(): void;
  stop(): void;
}

/**
 * Asks the backend for the checkout until it is final or time runs out. The
 * backend's answer is the only proof of an outcome; `nudge()` (a completion
 * message from the challenge) merely asks sooner. At most one request is in
 * flight: a nudge during a request queues exactly one more. The deadline (and
 * `stop()`) aborts the request in flight too, through the signal `confirm` gets:
 * a backend that never answers cannot hold the loop past its time. A status
 * this code does not know is not final (`isFinal`: src/domain's isFinalStatus, which the
 * widget hands in through the step's context, see types.ts). While the page
 * is hidden it does not ask. A closure, not a class: its state never leaves
 * it, and locals minify to a letter.
 */
export function confirmLoop(
  confirm: (signal: AbortSignal) => Promise<CheckoutView>,
  isFinal: (status: unknown) => boolean,
  schedule: PollSchedule = DEFAULT_POLL,
): ConfirmLoop {
  let delay = schedule.firstMs;
  const deadline = Date.now() + schedule.totalMs;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let deadlineTimer: ReturnType<typeof setTimeout> | undefined;
  let request: AbortController | undefined;
  let inFlight = false;
  let queued = false;
  let stopped = false;
  let expired = false;
  let last: CheckoutView | undefined;
  let lastError: unknown;
  let resolve!: (outcome: Outcome) => void;
  let reject!: (error: unknown) => void;
  const result = new Promise<Outcome>((yes, no) => {
    resolve = yes;
    reject = no;
  });

  const stop = (): void => {
    stopped = true;
    clearTimeout(timer);
    clearTimeout(deadlineTimer);
    request?.abort();
  };
  const arm = (): void => {
    const wait = Math.max(0, Math.min(delay, deadline - Date.now()));
    delay = Math.min(delay * BACK_OFF, schedule.maxMs);
    timer = setTimeout(tick, wait);
  };
  const tick = async (): Promise<void> => {
    if (inFlight) {
      queued = true;
      return;
    }
    // Hidden: nobody is looking (and a phone's battery pays for each read). The clock runs
    // on; the first tick once the page is seen reads again (the element reads at once too).
    if (document.hidden && !expired) return arm();
    inFlight = true;
    request = new AbortController();
    try {
      const checkout = await confirm(request.signal);
      if (stopped) return;
      last = checkout;
      if (isFinal(checkout.status)) {
        stop();
        resolve({ kind: 'final', checkout });
        return;
      }
    } catch (error) {
      // A failed confirmation is retried on the next tick: one network blip
      // must not turn a payment the shopper completed into an error. (The abort
      // of a request the deadline gave up on says nothing about the backend.)
      if (!expired || lastError === undefined) lastError = error;
    } finally {
      inFlight = false;
      request = undefined;
    }
    if (stopped) return;
    if (expired || Date.now() >= deadline) finish();
    else if (queued) {
      queued = false;
      void tick();
    } else {
      arm();
    }
  };

  /** Ends the loop with what it has: the last checkout read (pending), or the last error. */
  const finish = (): void => {
    stop();
    if (last) resolve({ kind: 'pending', checkout: last });
    else reject(lastError);
  };

  /** At the deadline a request still out is given up, and the loop ends with what it has. */
  const expire = (): void => {
    if (stopped) return;
    expired = true;
    if (inFlight) request?.abort();
    else if (last || lastError) finish();
    // Hidden all along, nothing read yet: one read ends it, with what it finds.
    else void tick();
  };

  return {
    result,
    start() {
      deadlineTimer = setTimeout(expire, Math.max(0, deadline - Date.now()));
      arm();
    },
    nudge() {
      if (stopped) return;
      clearTimeout(timer);
      void tick();
    },
    stop,
  };
}
