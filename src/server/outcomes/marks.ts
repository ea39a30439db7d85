/**
 * Writing a hook's done mark: once, and, when the store cannot take it, again in the
 * background until it does. The marks not yet taken are kept by key, so that a report of the
 * same outcome writes its mark first (under the hook's own token) instead of claiming. And
 * freeing, in the background too, a claim whose answer never came, or whose hook threw
 * while the store was away.
 */
import type { ClaimStore } from '../store/types.ts';
import type { HookName, OutcomeProblem } from './problems.ts';

/** A claim this instance holds (or held) for a hook run. */
export interface Held {
  name: HookName;
  id: string;
  key: string;
  token: string;
  started: number;
}

export interface MarkOptions {
  claims: ClaimStore;
  /** hooks.leaseMs, named when a hook returns past it. */
  leaseMs: number;
  onProblem(hook: HookName, checkoutId: string, problem: OutcomeProblem): void;
  /** Waits between tries; default 100 ms doubling to 500 ms, 5 minutes in all. */
  retryDelaysMs?: readonly number[] | undefined;
}

function defaultRetries(): number[] {
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

export function createMarkWriter(options: MarkOptions) {
  const { claims: store } = options;
  const retries = options.retryDelaysMs ?? defaultRetries();
  /** The marks this instance keeps until the store takes them, by key. */
  const pending = new Map<string, Held>();

  /** One try to mark the key done; a lost lease is told, a store error is returned. */
  async function writeOnce(held: Held): Promise<{ error: unknown } | undefined> {
    try {
      if (!(await store.complete(held.key, held.token))) {
        const elapsedMs = Date.now() - held.started;
        options.onProblem(held.name, held.id, {
          kind: 'lease-lost',
          elapsedMs,
          leaseMs: options.leaseMs,
        });
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
  async function keepWriting(held: Held, first: unknown): Promise<void> {
    options.onProblem(held.name, held.id, { kind: 'complete-failed', error: first, final: false });
    pending.set(held.key, held);
    let last = first;
    try {
      for (const delay of retries) {
        await sleep(delay);
        // A report of the same outcome may have written it meanwhile (writeKept).
        if (pending.get(held.key) !== held) return;
        const failed = await writeOnce(held);
        if (failed === undefined) return;
        last = failed.error;
      }
      options.onProblem(held.name, held.id, { kind: 'complete-failed', error: last, final: true });
    } finally {
      if (pending.get(held.key) === held) pending.delete(held.key);
    }
  }

  /**
   * A report of an outcome whose mark this instance still keeps: writes that mark, before any
   * claim, so that once the store answers again the first thing this instance asks of it for
   * that outcome is the mark, not a claim that a lease run out would let in. `undefined` when
   * no mark is kept; otherwise whether the store took it.
   */
  async function writeKept(key: string): Promise<'written' | 'unavailable' | undefined> {
    const kept = pending.get(key);
    if (kept === undefined) return undefined;
    if ((await writeOnce(kept)) !== undefined) return 'unavailable';
    pending.delete(key);
    return 'written';
  }

  /**
   * A claim that failed may still have been written: its answer lost with the connection
   * (the store carried it out, then went away), or given up while the client still held it
   * to send later. Such a claim holds the key for its lease with no hook running, and each
   * report in the meantime is told `running`. Its token is this claim's alone, so releasing
   * it frees nothing else: released now (a client that queues sends it behind the claim) and,
   * while the store does not answer, again until the lease would have ended it anyway.
   */
  async function releaseUnanswered(key: string, token: string, leaseMs: number): Promise<void> {
    const until = Date.now() + leaseMs;
    for (const delay of [0, ...retries]) {
      if (delay > 0) await sleep(delay);
      if (Date.now() >= until) return;
      try {
        await store.release(key, token);
        return;
      } catch {
        // Still away: the next try.
      }
    }
  }

  /**
   * Frees the claim of a hook that threw: whether it did, or undefined when the store could
   * not be asked. That is said once, with the hook's error, and the claim is freed in the
   * background once the store answers (a database restarting), not only when its lease ends:
   * else the next report waits out the lease, then takes it over as a run that may have
   * fulfilled ("may have run twice").
   */
  async function releaseThrown(held: Held, error: unknown): Promise<boolean | undefined> {
    try {
      return await store.release(held.key, held.token);
    } catch (releaseError) {
      // One entry: "it runs again on the next report" would not hold while the claim stands.
      options.onProblem(held.name, held.id, { kind: 'release-failed', error, releaseError });
      // Not awaited, and it never throws.
      void releaseUnanswered(held.key, held.token, options.leaseMs - (Date.now() - held.started));
      return undefined;
    }
  }

  return { writeOnce, keepWriting, writeKept, releaseUnanswered, releaseThrown };
}
