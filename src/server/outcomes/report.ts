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
import type { FailedCheckout, LogEntry, PaidCheckout } from '../types.ts';
import { doneMark, type HookRun, LeaseLostError } from './done.ts';

type HookName = 'onPaid' | 'onFailed';

/** Something went wrong around a hook; the reporter never throws. */
export type OutcomeProblem =
  /** The hook threw; its claim was released for the next report. */
  | { kind: 'hook-threw'; error: unknown }
  /** The store could not take the claim: no hook ran. */
  | { kind: 'claim-failed'; error: unknown }
  /** The hook threw and the store could not free its claim: it runs again once the lease ends. */
  | { kind: 'release-failed'; error: unknown }
  /** The hook ran; the store could not record it yet (retried in the background). */
  | { kind: 'complete-failed'; error: unknown; final: boolean }
  /** The hook returned after its lease ran out and another report took the claim over. */
  | { kind: 'lease-lost'; elapsedMs: number }
  /**
   * The hook's `done(tx)` found the outcome another run's (`LeaseLostError`): its
   * transaction rolled back, and the other run's stands. Nothing ran twice.
   */
  | { kind: 'rolled-back'; elapsedMs: number }
  /**
   * The hook called `done(tx)` but its transaction did not commit the mark (it rolled
   * back, or the hook returned before committing): released, so the next report runs it.
   */
  | { kind: 'not-committed' }
  /** The hook called `done(tx)`; the store could not be asked whether its mark committed. */
  | { kind: 'readback-failed'; error: unknown }
  /** The hook threw after its transaction committed the outcome done: it does not run again. */
  | { kind: 'threw-after-done'; error: unknown };

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

function defaultCompleteRetries(): number[] {
  const delays: number[] = [];
  let total = 0;
  // Short waits: once the store is back, the hook must be recorded before its lease ends
  // and a retried webhook takes the claim over. A failed try costs one refused command.
  for (let delay = 100; total < 5 * 60_000; delay = Math.min(delay * 2, 500)) {
    delays.push(delay);
    total += delay;
  }
  return delays;
}

const sleep = (ms: number) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    // Waiting to record a finished hook must not keep a stopping process alive.
    (timer as { unref?: () => void }).unref?.();
  });

/** Returns `report(checkout)`. */
export function createOutcomeReporter(options: OutcomeOptions) {
  const { claims: store, leaseMs } = options;
  const completeRetries = options.completeRetryDelaysMs ?? defaultCompleteRetries();

  interface Held {
    name: HookName;
    id: string;
    key: string;
    token: string;
    started: number;
  }

  /** One try to mark the key done; a lost lease is told, a store error is returned. */
  async function completeOnce(held: Held): Promise<{ error: unknown } | undefined> {
    try {
      if (!(await store.complete(held.key, held.token))) {
        const elapsedMs = Date.now() - held.started;
        options.onProblem(held.name, held.id, { kind: 'lease-lost', elapsedMs });
      }
      return undefined;
    } catch (error) {
      return { error };
    }
  }

  /**
   * The hook ran but the store could not record it: keep trying in the background. The key
   * stays `running` meanwhile (until its lease ends), so no other report runs the hook; and
   * the report does not fail, since the hook has run and the provider need not deliver again.
   */
  async function keepCompleting(held: Held, first: unknown): Promise<void> {
    options.onProblem(held.name, held.id, { kind: 'complete-failed', error: first, final: false });
    pending.set(held.key, held);
    let last = first;
    try {
      for (const delay of completeRetries) {
        await sleep(delay);
        // A report of the same outcome may have written it meanwhile (below).
        if (pending.get(held.key) !== held) return;
        const failed = await completeOnce(held);
        if (failed === undefined) return;
        last = failed.error;
      }
      options.onProblem(held.name, held.id, { kind: 'complete-failed', error: last, final: true });
    } finally {
      if (pending.get(held.key) === held) pending.delete(held.key);
    }
  }

  /**
   * Done marks this instance keeps until the store takes them, by key. A report of the same
   * outcome writes its mark first, under the hook's own token, before it claims: once the
   * store answers again, the first thing this instance asks of it for that outcome is the
   * mark, not a claim that a lease run out would let in.
   */
  const pending = new Map<string, Held>();

  async function report(checkout: Checkout): Promise<OutcomeResult> {
    const id = checkout.id;
    if (id == null) return 'none';
    if (!isFinalStatus(checkout.status)) return 'none';
    // An expired checkout will never be paid either: the merchant may release the order.
    const name: HookName = checkout.status === 'PAID' ? 'onPaid' : 'onFailed';
    // The checks above are what PaidCheckout and FailedCheckout promise: an id, and the
    // status that names the hook.
    const hook = options[name] as ((checkout: Checkout, run: HookRun) => unknown) | undefined;
    if (hook === undefined) return 'none';
    const key = `${name}:${options.merchantCode}:${id}`;
    const kept = pending.get(key);
    if (kept !== undefined) {
      if ((await completeOnce(kept)) !== undefined) return 'unavailable';
      pending.delete(key);
      return 'already';
    }
    const token = crypto.randomUUID();
    let state: ClaimState;
    try {
      state = await store.claim(key, token, leaseMs);
    } catch (error) {
      // A shared store that is down must not fail the confirmation itself; the webhook
      // asks the provider to deliver again, which claims once the store is back.
      options.onProblem(name, id, { kind: 'claim-failed', error });
      return 'unavailable';
    }
    if (state === 'done') return 'already';
    if (state === 'running') return 'running';
    const started = Date.now();
    const mark = doneMark(store, { hook: name, checkoutId: id, key, token });
    let threw: { error: unknown } | undefined;
    try {
      await hook(checkout, mark.run);
    } catch (error) {
      threw = { error };
    }
    const held: Held = { name, id, key, token, started };
    // The transaction decides: what it committed is read back from the store.
    if (mark.marked || threw?.error instanceof LeaseLostError) return readBack(held, threw);
    if (threw !== undefined) return failed(held, threw.error);
    const completeFailed = await completeOnce(held);
    // Not awaited: the hook has run. onProblem is the handler's logger, which never throws.
    if (completeFailed !== undefined) void keepCompleting(held, completeFailed.error);
    return 'ran';
  }

  /** The hook threw: its claim is freed for the next report. */
  async function failed(held: Held, error: unknown): Promise<OutcomeResult> {
    options.onProblem(held.name, held.id, { kind: 'hook-threw', error });
    try {
      await store.release(held.key, held.token);
    } catch (releaseError) {
      options.onProblem(held.name, held.id, { kind: 'release-failed', error: releaseError });
    }
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
      options.onProblem(held.name, held.id, { kind: 'rolled-back', elapsedMs });
      return holder.state === 'done' ? 'already' : 'running';
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

  return report;
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** What each problem means for the hook, by kind: the log level and what happens next. */
function problemText(hook: HookName, problem: OutcomeProblem): [LogEntry['level'], string] {
  switch (problem.kind) {
    case 'hook-threw':
      return ['error', `${hook} threw; it will run again on the next report of this checkout`];
    case 'claim-failed':
      return [
        'error',
        `the store could not be asked; ${hook} did not run: a webhook is answered 503 so the provider delivers again`,
      ];
    case 'release-failed':
      return [
        'error',
        `${hook} threw and the store could not release its claim; it runs again once the claim's lease (hooks.leaseMs) ends`,
      ];
    case 'complete-failed':
      return problem.final
        ? [
            'error',
            `${hook} ran but the store never recorded it; a report after its lease may run it again`,
          ]
        : [
            'warn',
            `${hook} ran but the store could not record it yet; trying again in the background`,
          ];
    case 'lease-lost':
      return [
        'warn',
        `${hook} returned after its lease (hooks.leaseMs) ran out and another report took it over: it may have run twice`,
      ];
    case 'rolled-back':
      return [
        'warn',
        `${hook} outlived its lease (hooks.leaseMs) and another run took the outcome over: done(tx) threw LeaseLostError and this run's transaction rolled back; the other run's stands`,
      ];
    case 'not-committed':
      return [
        'error',
        `${hook} called done(tx) but its transaction did not commit; it will run again on the next report of this checkout`,
      ];
    case 'readback-failed':
      return [
        'error',
        `${hook} called done(tx), and the store could not be asked whether it committed; a report after its lease finds out (a webhook is answered 503)`,
      ];
    case 'threw-after-done':
      return [
        'error',
        `${hook} threw after its transaction committed done(tx): the outcome counts as done and the hook does not run again`,
      ];
  }
}

/** The log entry for a problem: what happened, what happens next, and its error or timing. */
export function problemEntry(
  hook: HookName,
  checkoutId: string,
  problem: OutcomeProblem,
): LogEntry {
  const [level, text] = problemText(hook, problem);
  const detail =
    problem.kind === 'lease-lost' || problem.kind === 'rolled-back'
      ? { elapsedMs: problem.elapsedMs }
      : problem.kind === 'not-committed'
        ? {}
        : { error: message(problem.error) };
  return { level, message: text, hook, checkoutId, ...detail };
}
