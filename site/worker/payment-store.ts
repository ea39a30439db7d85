// The handler's `PaymentStore` on the site's records, so that what the handler remembers (its
// hooks' claims, the baskets' current checkouts, open 3DS steps, the checkouts reconciliation
// watches) outlives the worker. One worker serves the site at a time, and it runs one event at
// a time: the compare-and-set the interface asks for needs no lock here. Without `hit`, the
// handler counts its rate limits in memory. It passes the store contract
// (test/browser/site/payment-store.test.ts).
import {
  type ClaimState,
  type ClaimStore,
  DONE_TTL_MS,
  type RecordStore,
  type WatchStore,
} from '../../src/server/store/types.ts';
import type { Records } from './records.ts';

interface Claim {
  state: Exclude<ClaimState, 'claimed'>;
  token: string;
  expires: number;
}

interface Kept {
  value: string;
  expires: number;
}

const CLAIM = 'handler:claim:';
const RECORD = 'handler:record:';
const SET = 'handler:set:';

function live<T extends { expires: number }>(records: Records, key: string): T | undefined {
  const value = records.get(key) as T | undefined;
  if (value === undefined || value.expires > Date.now()) return value;
  records.delete(key);
  return undefined;
}

export function createBrowserStore(records: Records): ClaimStore & WatchStore & RecordStore {
  const setOf = (name: string) =>
    new Map(Object.entries((records.get(SET + name) as Record<string, number>) ?? {}));
  const saveSet = (name: string, set: Map<string, number>) =>
    records.set(SET + name, Object.fromEntries(set));
  return {
    async claim(key, token, leaseMs) {
      const claim = live<Claim>(records, CLAIM + key);
      if (claim !== undefined) return claim.state;
      records.set(CLAIM + key, { state: 'running', token, expires: Date.now() + leaseMs });
      return 'claimed';
    },
    async complete(key, token) {
      const claim = live<Claim>(records, CLAIM + key);
      if (claim !== undefined && claim.token !== token) return false;
      records.set(CLAIM + key, { state: 'done', token, expires: Date.now() + DONE_TTL_MS });
      return true;
    },
    async release(key, token) {
      // Its lease may have run out: while nobody took it over it is still this token's, and
      // the next report claims it afresh (the store contract).
      const claim = records.get(CLAIM + key) as Claim | undefined;
      if (claim?.state !== 'running' || claim.token !== token) return false;
      records.delete(CLAIM + key);
      return true;
    },
    async watch(name, id, checkAt) {
      const set = setOf(name);
      set.set(id, checkAt);
      saveSet(name, set);
    },
    async due(name, now, limit, holdMs) {
      const set = setOf(name);
      const due = [...set]
        .filter(([, at]) => at <= now)
        .sort((a, b) => a[1] - b[1])
        .slice(0, limit)
        .map(([id]) => id);
      for (const id of due) set.set(id, now + holdMs);
      if (due.length > 0) saveSet(name, set);
      return due;
    },
    async unwatch(name, id) {
      const set = setOf(name);
      if (set.delete(id)) saveSet(name, set);
    },
    async read(key) {
      return live<Kept>(records, RECORD + key)?.value;
    },
    async swap(key, expected, value, ttlMs) {
      if (live<Kept>(records, RECORD + key)?.value !== expected) return false;
      records.set(RECORD + key, { value, expires: Date.now() + ttlMs });
      return true;
    },
    async write(key, value, ttlMs) {
      records.set(RECORD + key, { value, expires: Date.now() + ttlMs });
    },
    async remove(key) {
      records.delete(RECORD + key);
    },
  };
}
