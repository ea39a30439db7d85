/**
 * The state that handler instances share (`PaymentStore`), in four parts: the outcome hooks'
 * claims (`ClaimStore`, the one every store has), the checkouts that reconciliation watches
 * (`WatchStore`), the rate limits' counters (`CounterStore`) and small records: the baskets'
 * current checkouts and the checkouts' open steps (`RecordStore`). A store implements each
 * optional part whole or not at all (checked when the handler is made, by name), and the
 * handler's `store` option may take the parts from different stores (parts.ts).
 *
 * The claims are the "exactly once" guard for `onPaid`/`onFailed`. A checkout's outcome
 * reaches the handler up to four ways at once (the browser's return redirect, the provider's
 * webhook, the widget's polling, the process answer), possibly on different instances. Each
 * report claims the outcome's key under a token of its own. The claim is `running` for at
 * most its lease (`hooks.leaseMs`): only its holder runs the hook, then marks the key `done`,
 * which is kept for days. A holder that dies mid-hook (a crash, a deploy) leaves a claim that
 * expires with its lease, so a later report takes it over and runs the hook: the order is
 * never left unfulfilled.
 *
 * A claim store whose claims live in the merchant's own database (the PostgreSQL store) also
 * marks a claim done inside the merchant's transaction (`completeIn`): the done mark then
 * commits with the order or not at all, whatever the lease.
 */

/** What a claim found: `claimed` (the caller runs the hook), `running` elsewhere, or `done`. */
export type ClaimState = 'claimed' | 'taken-over' | 'running' | 'done';

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

/**
 * The merchant's transaction, as a hook's `done(tx)` takes it: a `pg` (node-postgres) client
 * inside the transaction (`await pool.connect()` after `BEGIN`), a postgres.js transaction
 * `sql` (inside `sql.begin(async (sql) => ...)`), or any object that runs one SQL statement
 * with `$1`-style parameters in the transaction (Prisma, Drizzle, Kysely...): `executeSql`
 * answers the statement's rows (an array, or `{ rows }`) or how many rows it changed.
 */
export type SqlTransaction =
  | { query(text: string, values?: unknown[]): Promise<unknown> }
  | { unsafe(text: string, values?: unknown[], options?: object): Promise<unknown> }
  | { executeSql(text: string, values: unknown[]): Promise<unknown> };

/** Who holds a claim now: its state and its holder's token. */
export interface ClaimHolder {
  state: 'running' | 'done';
  token: string;
}

/** The hooks' claims: the part every store has. */
export interface ClaimStore {
  /**
   * Atomically: when `key` is free (never claimed, released, or its lease ran out), hold
   * it as `running` under `token` for `leaseMs` and answer `claimed` (`taken-over` if it can
   * tell an earlier claim's lease ran out); otherwise answer `running` or `done`. Must be
   * atomic across every instance that shares the store.
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
   * The hook threw: free `key` if it is still held under `token` (compare-and-delete), its
   * lease run out or not, so the next report runs the hook again, as a claim and not as a
   * takeover of a crashed holder's. Answers whether it was freed; `false` when another
   * token holds it or marked it done.
   */
  release(key: string, token: string): Promise<boolean>;
  /**
   * Optional, with `holder`: does what `complete` does, but inside the merchant's transaction
   * `tx`, so the mark commits with the merchant's writes or not at all. A store offers it only
   * when its claims live in a database that `tx` writes to (the PostgreSQL store).
   */
  completeIn?(tx: SqlTransaction, key: string, token: string): Promise<boolean>;
  /** Optional, with `completeIn`: the claim on `key` as committed now, or undefined when free. */
  holder?(key: string): Promise<ClaimHolder | undefined>;
  /** Optional: ms until the claim on `key` ends (undefined: none), for the webhook's `Retry-After`. */
  leaseLeft?(key: string): Promise<number | undefined>;
}

/**
 * The watched checkouts, for reconciliation (outcomes/reconcile.ts): a set per merchant of
 * checkout ids, each with the time it is next due to be read from the provider. Without it
 * `reconcile()` has nothing to do.
 */
export interface WatchStore {
  /** Watches `id` in `set`, or moves its next check, to `checkAt` (ms since the epoch). */
  watch(set: string, id: string, checkAt: number): Promise<void>;
  /**
   * Atomically across instances: up to `limit` ids of `set` due by `now`, soonest first, each
   * moved to `now + holdMs` so that no other caller takes it meanwhile.
   */
  due(set: string, now: number, limit: number, holdMs: number): Promise<string[]>;
  /** Removes `id` from `set`: its outcome hook ran, or it can no longer change. */
  unwatch(set: string, id: string): Promise<void>;
}

/** Request counters, for the rate limits (guards/rate-limit.ts). Without it each instance counts in its own memory. */
export interface CounterStore {
  /**
   * Atomically across instances, one more hit on each counter, in fixed windows: a counter's
   * first hit starts a window of `windowMs` that ends by itself (the counter with it). Answers,
   * per counter in order, the hits in its current window, this one included, and the
   * milliseconds until that window ends.
   */
  hit(counters: readonly Counter[]): Promise<CounterState[]>;
}

/**
 * Small records: a basket's current checkout (one checkout per basket), changed only by
 * compare-and-set, and a checkout's open 3DS or bank step (outcomes/open-steps.ts), written and
 * removed outright. Without it each instance keeps its own, and the provider's
 * `DUPLICATED_CHECKOUT` is the only guard between instances.
 */
export interface RecordStore {
  /** The record under `key`, or undefined when there is none (never set, or expired). */
  read(key: string): Promise<string | undefined>;
  /**
   * Atomically across instances: when `key` holds `expected` (undefined: holds nothing), set
   * it to `value`, kept `ttlMs`, and answer `true`; otherwise change nothing and answer `false`.
   */
  swap(key: string, expected: string | undefined, value: string, ttlMs: number): Promise<boolean>;
  /** Sets `key` to `value`, kept `ttlMs`, whatever it held. */
  write(key: string, value: string, ttlMs: number): Promise<void>;
  /** Removes the record under `key`, if there is one. */
  remove(key: string): Promise<void>;
}

/** A part a store has whole, or not at all. */
type WholeOrNone<Part> = Part | { [Name in keyof Part]?: never };

/**
 * One store that keeps the claims and any of the other parts, each whole or not at all:
 * `createMemoryStore()`, `createRedisStore(client)`, `createPostgresStore(client)`, or one of
 * your own (test it with `storeContract` from `payment-widget/server/testing`).
 */
export type PaymentStore = ClaimStore &
  WholeOrNone<WatchStore> &
  WholeOrNone<CounterStore> &
  WholeOrNone<RecordStore>;

/** A store that keeps every part: the memory, Redis and PostgreSQL stores. */
export type CompleteStore = ClaimStore & WatchStore & CounterStore & RecordStore;

/**
 * The store's parts taken from different stores: the claims in PostgreSQL beside the orders,
 * say, and the rate counters in Redis. A part left out is kept as a store without it would.
 */
export interface StoreParts {
  claims: ClaimStore;
  watch?: WatchStore | undefined;
  counters?: CounterStore | undefined;
  records?: RecordStore | undefined;
}

/** Default time a `done` key is kept: the provider retries a webhook for days at most. */
export const DONE_TTL_MS = 7 * 24 * 60 * 60 * 1000;
