/**
 * Counters that keep counting while the shared store cannot: the store's `hit` when it has
 * one and answers, else this process's memory (store/counters.ts), so that a count that
 * protects something (a limit, "once a day") holds per instance rather than not at all.
 */
import { createMemoryCounters } from './counters.ts';
import type { Counter, CounterState } from './types.ts';

export type Hit = (counters: readonly Counter[]) => Promise<CounterState[]>;

/** `shared` (the store's `hit`), or memory without one, or while it fails (said once a minute). */
export function countingWith(shared: Hit | undefined, failed: (error: unknown) => void): Hit {
  const local = createMemoryCounters();
  if (shared === undefined) return async (counters) => local(counters);
  let failedAt = Number.NEGATIVE_INFINITY;
  return async (counters) => {
    try {
      return await shared(counters);
    } catch (error) {
      const now = Date.now();
      if (now - failedAt > 60_000) failed(error);
      failedAt = now;
      return local(counters);
    }
  };
}
