/**
 * Runs `onPaid`/`onFailed` once per checkout, whichever path (return page, webhook,
 * polling, the process answer) reports the final status first, on whichever instance.
 *
 * The protocol (see store/types.ts): claim the outcome's key under a fresh token for
 * `leaseMs`; only the claimant runs the hook; a hook that returned marks the key done, a
 * hook that threw releases it. So hooks run at least once per final outcome and, while
 * instances stay up and hooks finish within the lease, exactly once. A hook that outlives
 * its lease may overlap a later report's run: hooks must stay idempotent.
 */
import { isFinalStatus } from '../../domain/checkout.ts';
import type { Checkout } from '../../schemas/index.ts';
import type { ClaimState, ClaimStore } from '../store/types.ts';
import type { FailedCheckout, PaidCheckout } from '../types.ts';
import { doneMark, type HookRun, LeaseLostError } from './done.ts';
import { createMarkWriter, type Held } from './marks.ts';
import type { HookName, OutcomeProblem } from './problems.ts';

export interface OutcomeOptions {
  /** Scopes the keys when several handlers (merchants) share one store. */
  merchantCode: string;
  claims: ClaimStore;
  /** How long a claim is `running` before another report may take it over. */
  leaseMs: number;
  onPaid?: ((checkout: PaidCheckout, run: HookRun) => unknown) | undefined;
  onFailed?: ((checkout: FailedCheckout, run: HookRun) => unknown) | undefined;
  onProblem(hook: HookName, checkoutId: string, problem: OutcomeProblem): void;
  /** Waits between tries to record a hook that ran; default 100 ms doubling to 500 ms, 5 minutes in all. */
  completeRetryDelaysMs?: readonly number[];
}

/**
 * `ran`: this call ran the hook. `already`: it ran before. `running`: another report holds
 * the claim right now. `failed`: the hook threw (released for a retry). `unavailable`: the
 * store could not be asked; no hook ran. The webhook answers non-2xx to the last three, so
 * the provider delivers again; the return page and polling answer the checkout as usual.
 */
export type OutcomeResult = 'none' | 'ran' | 'already' | 'running' | 'failed' | 'unavailable';

export type Reporter = ReturnType<typeof createOutcomeReporter>;

/** Returns `report(checkout)`, and `report.retryAfterS(checkout)`. */
export function createOutcomeReporter(options: OutcomeOptions) {
  const { claims: store, leaseMs } = options;
  const marks = createMarkWriter({
    claims: store,
    leaseMs,
    onProblem: options.onProblem,
    retryDelaysMs: options.completeRetryDelaysMs,
  });

  // An expired checkout will never be paid either: the merchant may release the order.
  const nameOf = (checkout: Checkout): HookName =>
    checkout.status === 'PAID' ? 'onPaid' : 'onFailed';
  const keyOf = (checkout: Checkout) =>
    `${nameOf(checkout)}:${options.merchantCode}:${checkout.id}`;

  async function report(checkout: Checkout): Promise<OutcomeResult> {
    const id = checkout.id;
    if (id == null) return 'none';
    if (!isFinalStatus(checkout.status)) return 'none';
    const name = nameOf(checkout);
    // The checks above are what PaidCheckout and FailedCheckout promise: an id, and the
    // status that names the hook.
    const hook = options[name] as ((checkout: Checkout, run: HookRun) => unknown) | undefined;
    if (hook === undefined) return 'none';
    // A key that reads other merchants' checkouts (a platform's) reads theirs too: one paid
    // there, named in a webhook or a request here, is not this shop's order to fulfil.
    const merchant = checkout.merchant_code;
    if (merchant != null && merchant !== options.merchantCode) {
      options.onProblem(name, id, { kind: 'other-merchant', merchantCode: merchant });
      return 'none';
    }
    const key = keyOf(checkout);
    const kept = await marks.writeKept(key);
    if (kept !== undefined) return kept === 'written' ? 'already' : 'unavailable';
    const token = crypto.randomUUID();
    let state: ClaimState;
    try {
      state = await store.claim(key, token, leaseMs);
    } catch (error) {
      // A shared store that is down must not fail the confirmation itself; the webhook
      // asks the provider to deliver again, which claims once the store is back.
      options.onProblem(name, id, { kind: 'claim-failed', error });
      // Not awaited, and it never throws: the report answers now.
      void marks.releaseUnanswered(key, token, leaseMs);
      return 'unavailable';
    }
    if (state === 'done') return 'already';
    if (state === 'running') return 'running';
    // The earlier claim's lease ran out undone (problems.ts says what that may have been).
    if (state === 'taken-over') options.onProblem(name, id, { kind: 'lease-taken-over', leaseMs });
    const started = Date.now();
    const mark = doneMark(store, { hook: name, checkoutId: id, key, token });
    let threw: { error: unknown } | undefined;
    // Said when the lease ends, not only when (if ever) the hook returns: the next report
    // may take it over from then on, and a hook that never returns would say nothing.
    const overdue = setTimeout(
      () => options.onProblem(name, id, { kind: 'lease-ran-out', leaseMs }),
      leaseMs,
    );
    // It must not keep a stopping process alive (Node; other runtimes have no unref).
    (overdue as { unref?: () => void }).unref?.();
    try {
      await hook(checkout, mark.run);
    } catch (error) {
      threw = { error };
    } finally {
      clearTimeout(overdue);
    }
    const held: Held = { name, id, key, token, started };
    // The transaction decides: what it committed is read back from the store.
    if (mark.marked || threw?.error instanceof LeaseLostError) return readBack(held, threw);
    if (threw !== undefined) return failed(held, threw.error);
    const completeFailed = await marks.writeOnce(held);
    // Not awaited: the hook has run. onProblem is the handler's logger, which never throws.
    if (completeFailed !== undefined) void marks.keepWriting(held, completeFailed.error);
    return 'ran';
  }

  /** The hook threw: its claim is freed for the next report. */
  async function failed(held: Held, error: unknown): Promise<OutcomeResult> {
    const released = await marks.releaseThrown(held, error);
    if (released === undefined) return 'failed';
    // Not this run's any more: its lease ran out, and another run may have done the outcome
    // meanwhile (the hook then threw on what that run wrote: its order's unique key, say).
    const holder = released ? undefined : await store.holder?.(held.key).catch(() => undefined);
    if (holder !== undefined && holder.token !== held.token) {
      const elapsedMs = Date.now() - held.started;
      const done = holder.state === 'done';
      options.onProblem(held.name, held.id, { kind: 'threw-taken-over', error, elapsedMs, done });
      return done ? 'already' : 'running';
    }
    options.onProblem(held.name, held.id, { kind: 'hook-threw', error });
    return 'failed';
  }

  /**
   * The hook marked its outcome in its transaction: whether that committed is read back from
   * the store, whatever the hook did after (it may have thrown after COMMIT, or caught an
   * error and rolled back without throwing).
   */
  async function readBack(
    held: Held,
    threw: { error: unknown } | undefined,
  ): Promise<OutcomeResult> {
    let holder: Awaited<ReturnType<NonNullable<ClaimStore['holder']>>>;
    try {
      holder = await store.holder?.(held.key);
    } catch (error) {
      // Unknown: the claim stays as it is; its lease lets a later report find out.
      options.onProblem(held.name, held.id, { kind: 'readback-failed', error });
      return 'unavailable';
    }
    if (holder !== undefined && holder.token !== held.token) {
      // Another run marked it (its transaction stands) or holds it now: this run's did not
      // commit, and the webhook is answered as for any claim held elsewhere.
      const elapsedMs = Date.now() - held.started;
      const done = holder.state === 'done';
      options.onProblem(held.name, held.id, { kind: 'rolled-back', elapsedMs, done });
      return done ? 'already' : 'running';
    }
    if (holder?.state === 'done') {
      if (threw !== undefined) {
        options.onProblem(held.name, held.id, { kind: 'threw-after-done', error: threw.error });
      }
      return 'ran';
    }
    // Still this run's, or free (its lease ran out): the mark never committed.
    if (threw !== undefined) return failed(held, threw.error);
    options.onProblem(held.name, held.id, { kind: 'not-committed' });
    await store.release(held.key, held.token).catch(() => false);
    return 'failed';
  }

  /**
   * After `running`: seconds until that claim may be taken over, what is left of its lease
   * (at least 1, at most `leaseMs`; all of it when the store cannot tell).
   */
  async function retryAfterS(checkout: Checkout): Promise<number> {
    const left = await store.leaseLeft?.(keyOf(checkout)).catch(() => undefined);
    return Math.max(1, Math.ceil(Math.min(left ?? leaseMs, leaseMs) / 1000));
  }

  return Object.assign(report, { retryAfterS });
}
