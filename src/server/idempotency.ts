/**
 * The "exactly once" guard for `onPaid`/`onFailed`.
 *
 * A checkout's outcome reaches the handler up to three ways at once (the
 * browser's return redirect, the provider's webhook, the widget's polling),
 * possibly on different server instances. Each path claims a key such as
 * `paid:<checkout id>`; only the caller that wins the claim runs the hook.
 */

export interface IdempotencyStore {
  /**
   * Atomically records `key` and answers `true` if it was not recorded yet,
   * `false` if some caller already holds it. Must be atomic across every
   * instance that shares the store: with Redis,
   * `SET <key> 1 NX EX <seconds>` returning `OK` means `true`; with SQL, an
   * `INSERT` into a table with a unique key that does not hit a conflict.
   * Keep keys at least as long as the provider may still report the checkout
   * (days, not minutes).
   */
  claim(key: string): Promise<boolean>;
  /**
   * Forgets `key`, so a later `claim` wins again. Called when a hook threw,
   * so the next report of the same outcome (a webhook retry, the next poll)
   * runs the hook again. With Redis: `DEL <key>`.
   */
  release(key: string): Promise<void>;
}

/**
 * The default store: one process's memory. Right for a single instance;
 * several instances need a shared store, or each runs the hooks once.
 * Entries are kept for `ttlMs` (default 7 days) and swept as new ones arrive.
 */
export function createMemoryIdempotencyStore(ttlMs = 7 * 24 * 60 * 60 * 1000): IdempotencyStore {
  const claimed = new Map<string, number>();
  function sweep(now: number) {
    // Map iterates in insertion order, so expired entries are at the front.
    for (const [key, expires] of claimed) {
      if (expires > now) break;
      claimed.delete(key);
    }
  }
  return {
    async claim(key) {
      const now = Date.now();
      sweep(now);
      if (claimed.has(key)) return false;
      claimed.set(key, now + ttlMs);
      return true;
    },
    async release(key) {
      claimed.delete(key);
    },
  };
}
