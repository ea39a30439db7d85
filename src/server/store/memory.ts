/**
 * The default store: one process's memory. Right for a single instance; several instances
 * need a shared store (`createRedisStore`), or each runs the hooks once.
 */
import { createMemoryCounters } from './counters.ts';
import { type CompleteStore, DONE_TTL_MS } from './types.ts';

export interface MemoryStoreOptions {
  /** How long a `done` key is kept. Default 7 days. */
  doneTtlMs?: number;
}

interface Entry {
  state: 'running' | 'done';
  token: string;
  /** When the lease or the done mark ends. */
  expires: number;
  /** When the entry goes: a lease that ran out is kept as long as a done mark, to tell a takeover. */
  kept: number;
}

/** A `PaymentStore` in this process's memory; claims are swept as new ones arrive. */
export function createMemoryStore(options: MemoryStoreOptions = {}): CompleteStore {
  const doneTtlMs = options.doneTtlMs ?? DONE_TTL_MS;
  const entries = new Map<string, Entry>();
  /** The entry under `key` (its lease or mark maybe over), or undefined once it is gone. */
  function stored(key: string, now: number): Entry | undefined {
    const entry = entries.get(key);
    if (entry === undefined || entry.kept > now) return entry;
    entries.delete(key);
    return undefined;
  }
  function live(key: string, now: number): Entry | undefined {
    const entry = stored(key, now);
    return entry !== undefined && entry.expires > now ? entry : undefined;
  }
  function set(key: string, entry: Entry) {
    // Re-inserting keeps the Map (which iterates in insertion order) roughly in expiry order.
    entries.delete(key);
    entries.set(key, entry);
  }
  function sweep(now: number) {
    for (const [key, entry] of entries) {
      if (entry.kept > now) break;
      entries.delete(key);
    }
  }
  const hit = createMemoryCounters();
  // Records: one per basket a shopper opened, and one per checkout with an open step, each
  // kept as long as the caller says. Their lifetimes differ (days, minutes), so the Map is not
  // in expiry order: it is swept whole each time it has doubled since the last sweep, which
  // costs each write a constant share and bounds it by twice the live records.
  const records = new Map<string, { value: string; expires: number }>();
  let sweepRecordsAt = 1024;
  const liveRecord = (key: string, now: number) => {
    const record = records.get(key);
    if (record === undefined || record.expires > now) return record;
    records.delete(key);
    return undefined;
  };
  const setRecord = (key: string, value: string, ttlMs: number, now: number) => {
    records.set(key, { value, expires: now + ttlMs });
    if (records.size < sweepRecordsAt) return;
    for (const [old, record] of records) if (record.expires <= now) records.delete(old);
    sweepRecordsAt = Math.max(1024, records.size * 2);
  };
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
      const entry = stored(key, now);
      if (entry !== undefined && entry.expires > now) return entry.state;
      const expires = now + leaseMs;
      set(key, { state: 'running', token, expires, kept: Math.max(expires, now + doneTtlMs) });
      return entry?.state === 'running' ? 'taken-over' : 'claimed';
    },
    async leaseLeft(key) {
      const now = Date.now();
      const entry = live(key, now);
      return entry && entry.expires - now;
    },
    async complete(key, token) {
      const now = Date.now();
      const entry = live(key, now);
      if (entry !== undefined && entry.token !== token) return false;
      set(key, { state: 'done', token, expires: now + doneTtlMs, kept: now + doneTtlMs });
      return true;
    },
    async release(key, token) {
      // Its lease may have run out: left behind, it would read as a crashed holder's.
      const entry = stored(key, Date.now());
      if (entry?.state !== 'running' || entry.token !== token) return false;
      entries.delete(key);
      return true;
    },
    async watch(set, id, checkAt) {
      setOf(set).set(id, checkAt);
    },
    async due(set, now, limit, holdMs) {
      // One instance's watched checkouts: a scan is cheap next to the provider reads that follow.
      const due = [...setOf(set)]
        .filter(([, at]) => at <= now)
        .sort((a, b) => a[1] - b[1])
        .slice(0, limit)
        .map(([id]) => id);
      for (const id of due) setOf(set).set(id, now + holdMs);
      return due;
    },
    async unwatch(set, id) {
      setOf(set).delete(id);
    },
    hit: async (counters) => hit(counters),
    async read(key) {
      return liveRecord(key, Date.now())?.value;
    },
    async swap(key, expected, value, ttlMs) {
      const now = Date.now();
      if (liveRecord(key, now)?.value !== expected) return false;
      setRecord(key, value, ttlMs, now);
      return true;
    },
    async write(key, value, ttlMs) {
      setRecord(key, value, ttlMs, Date.now());
    },
    async remove(key) {
      records.delete(key);
    },
  };
}
