/**
 * The "exactly once" guard for `onPaid`/`onFailed`: a claim with a lease.
 *
 * A checkout's outcome reaches the handler up to four ways at once (the browser's return
 * redirect, the provider's webhook, the widget's polling, the process answer), possibly on
 * different server instances. Each report claims the outcome's key under a token of its
 * own. The claim is `running` for at most the lease (`hookTimeoutMs`): only its holder runs
 * the hook, then marks the key `done`, which is kept for days. A holder that dies mid-hook
 * (a crash, a deploy) leaves a claim that expires with its lease, so a later report takes it
 * over and runs the hook: the order is never left unfulfilled.
 */

/** What a claim found: `claimed` (the caller runs the hook), `running` elsewhere, or `done`. */
export type ClaimState = 'claimed' | 'running' | 'done';

export interface IdempotencyStore {
  /**
   * Atomically: when `key` is free (never claimed, released, or its lease ran out), hold
   * it as `running` under `token` for `leaseMs` and answer `claimed`; otherwise answer
   * `running` or `done`. Must be atomic across every instance that shares the store.
   */
  claim(key: string, token: string, leaseMs: number): Promise<ClaimState>;
  /**
   * The hook returned: mark `key` `done`, kept for as long as the provider may still
   * report the checkout (days), if it is still held under `token` or free again (a lease
   * that ran out while nobody took it over). Answers `false` when another token holds it or
   * marked it done: the lease ran out and a second run was let in.
   */
  complete(key: string, token: string): Promise<boolean>;
  /**
   * The hook threw: free `key` if it is still held under `token` (compare-and-delete), so
   * the next report runs the hook again. Answers whether it was freed.
   */
  release(key: string, token: string): Promise<boolean>;

  // The open checkouts, for reconciliation (reconcile.ts): a set per merchant of checkout ids,
  // each with the time it is next due to be read from the provider. Optional, so a store
  // written before them still works; without them `reconcile()` has nothing to do.

  /** Adds `id` to `set`, or moves its next check, to `checkAt` (ms since the epoch). */
  track?(set: string, id: string, checkAt: number): Promise<void>;
  /**
   * Atomically across instances: up to `limit` ids of `set` due by `now`, soonest first, each
   * moved to `now + holdMs` so that no other caller takes it meanwhile.
   */
  due?(set: string, now: number, limit: number, holdMs: number): Promise<string[]>;
  /** Removes `id` from `set`: its outcome hook ran, or it can no longer change. */
  untrack?(set: string, id: string): Promise<void>;

  // Request counters, for the rate limits (rate-limit.ts). Optional as well: without it each
  // instance counts in its own memory.

  /**
   * Atomically across instances, one more hit on each counter, in fixed windows: a counter's
   * first hit starts a window of `windowMs` that ends by itself (the counter with it). Answers,
   * per counter in order, the hits in its current window, this one included, and the
   * milliseconds until that window ends.
   */
  hit?(counters: readonly Counter[]): Promise<CounterState[]>;
}

/** A counter of requests: its key, and the length of its windows. */
export interface Counter {
  key: string;
  windowMs: number;
}

/** A counter after a hit: the hits in the current window, and when that window ends. */
export interface CounterState {
  hits: number;
  resetInMs: number;
}

export interface MemoryIdempotencyStoreOptions {
  /** How long a `done` key is kept. Default 7 days. */
  doneTtlMs?: number;
}

/** At most this many live counters per window length; past it the oldest window goes first. */
const MAX_COUNTERS = 100_000;

/**
 * Fixed-window counters in memory. One Map per window length: a window starts at its first
 * hit and lasts as long as the others in that Map, so each Map (which iterates in insertion
 * order, a new window re-inserted) is in order of expiry and sweeping stops at the first live
 * counter. Capped, so a flood of new keys (addresses, checkout ids) cannot grow it without end.
 */
export function createMemoryCounters(): (counters: readonly Counter[]) => CounterState[] {
  const byWindow = new Map<number, Map<string, { hits: number; endsAt: number }>>();
  return (counters) => {
    const now = Date.now();
    return counters.map(({ key, windowMs }) => {
      let windows = byWindow.get(windowMs);
      if (windows === undefined) {
        windows = new Map();
        byWindow.set(windowMs, windows);
      }
      for (const [old, window] of windows) {
        if (window.endsAt > now && windows.size < MAX_COUNTERS) break;
        windows.delete(old);
      }
      let window = windows.get(key);
      if (window === undefined) {
        window = { hits: 0, endsAt: now + windowMs };
        windows.set(key, window);
      }
      window.hits += 1;
      return { hits: window.hits, resetInMs: window.endsAt - now };
    });
  };
}

/** Default time a `done` key is kept: the provider retries a webhook for days at most. */
export const DONE_TTL_MS = 7 * 24 * 60 * 60 * 1000;

interface Entry {
  state: 'running' | 'done';
  token: string;
  expires: number;
}

/**
 * The default store: one process's memory. Right for a single instance; several instances
 * need a shared store (`createRedisIdempotencyStore`), or each runs the hooks once.
 * Entries are swept as new claims arrive.
 */
export function createMemoryIdempotencyStore(
  options: MemoryIdempotencyStoreOptions = {},
): IdempotencyStore {
  const doneTtlMs = options.doneTtlMs ?? DONE_TTL_MS;
  const entries = new Map<string, Entry>();
  function live(key: string, now: number): Entry | undefined {
    const entry = entries.get(key);
    if (entry === undefined || entry.expires > now) return entry;
    entries.delete(key);
    return undefined;
  }
  function set(key: string, entry: Entry) {
    // Re-inserting keeps the Map (which iterates in insertion order) roughly in expiry order.
    entries.delete(key);
    entries.set(key, entry);
  }
  function sweep(now: number) {
    for (const [key, entry] of entries) {
      if (entry.expires > now) break;
      entries.delete(key);
    }
  }
  const hit = createMemoryCounters();
  const sets = new Map<string, Map<string, number>>();
  const setOf = (name: string) => {
    const set = sets.get(name) ?? new Map<string, number>();
    sets.set(name, set);
    return set;
  };
  return {
    async claim(key, token, leaseMs) {
      const now = Date.now();
      sweep(now);
      const entry = live(key, now);
      if (entry !== undefined) return entry.state;
      set(key, { state: 'running', token, expires: now + leaseMs });
      return 'claimed';
    },
    async complete(key, token) {
      const now = Date.now();
      const entry = live(key, now);
      if (entry !== undefined && entry.token !== token) return false;
      set(key, { state: 'done', token, expires: now + doneTtlMs });
      return true;
    },
    async release(key, token) {
      const entry = live(key, Date.now());
      if (entry?.state !== 'running' || entry.token !== token) return false;
      entries.delete(key);
      return true;
    },
    async track(set, id, checkAt) {
      setOf(set).set(id, checkAt);
    },
    async due(set, now, limit, holdMs) {
      // One instance's open checkouts: a scan is cheap next to the provider reads that follow.
      const due = [...setOf(set)]
        .filter(([, at]) => at <= now)
        .sort((a, b) => a[1] - b[1])
        .slice(0, limit)
        .map(([id]) => id);
      for (const id of due) setOf(set).set(id, now + holdMs);
      return due;
    },
    async untrack(set, id) {
      setOf(set).delete(id);
    },
    hit: async (counters) => hit(counters),
  };
}
