/**
 * Reconciliation: the last of the ways an outcome reaches the handler, for when all the others
 * failed. A checkout's outcome normally arrives by the return page, the widget's polling or the
 * provider's webhook; when the shopper closed the tab after 3DS and every webhook delivery was
 * lost, nothing would ever ask the provider again, and a paid order would stay unfulfilled.
 *
 * So the handler watches the checkouts it created or processed: a set in the store (one per
 * merchant, shared by every instance), and `reconcile()` reads the due ones from the provider
 * and reports each final one through the same claims as every other path: its hook runs once,
 * whoever gets there first. A checkout is unwatched when its hook has run or it can no longer
 * change (final with no hook to run, gone, or pending for longer than a week, MAX_AGE_MS). The set
 * holds only what the store was told and kept; the sweep (sweep.ts) then reads the provider's
 * own list past a watermark for what it was never told or lost in an outage or a failover.
 *
 * Bounded work: one call reads at most `limit` checkouts of the set, and handles at most
 * `limit` of the provider's list. Taking a batch of the set moves each one's next check past
 * `hooks.leaseMs` in the same atomic step, so instances that reconcile at the same time take
 * different checkouts and a crashed taker's batch comes back by itself. The provider is read
 * one checkout at a time; the hooks of the final ones run beside the next reads, a few at once,
 * and a call answers once they have all ended.
 */
import { isFinalStatus } from '../../domain/checkout.ts';
import type { Checkout } from '../../schemas/index.ts';
import { ProviderError } from '../provider/errors.ts';
import type { WatchStore } from '../store/types.ts';
import type { Logger } from '../types.ts';
import { createLostWebhooks, type LostWebhooksDeps } from './lost-webhooks.ts';
import { createSweep, type SweepResult } from './sweep.ts';

export interface ReconcileOptions {
  /**
   * How many checkouts of the watchlist one call reads at most, and how many of the
   * provider's list past the watermark it handles at most. Default 100.
   */
  limit?: number;
}

/** What one `reconcile()` call did. */
export interface ReconcileReport {
  /** Checkouts read from the provider. */
  checked: number;
  /** Hooks this call ran (onPaid or onFailed). */
  ran: number;
  /** Checkouts still open: pending at the provider, or their hook could not run yet. */
  open: number;
  /** Checkouts that left the set. */
  closed: number;
  /** Checkouts the provider could not be asked about, or its list (retried on a later call). */
  errors: number;
  /**
   * Checkouts taken from the provider's list past the watermark (sweep.ts): new ones, and
   * those the watchlist lost. Their hooks are counted in `ran`.
   */
  swept: number;
}

/** The checkouts under reconciliation: watched until their outcome is reported. */
export interface Watchlist {
  /**
   * Watches a checkout; `soon` makes it due at once (it is being paid right now). Never
   * throws: a store that is away must not fail the payment, and the sweep still finds it in
   * the provider's list.
   */
  watch(id: string, soon: boolean): Promise<void>;
  /** Its hook ran elsewhere: nothing is left to reconcile. Never throws. */
  unwatch(id: string): Promise<void>;
  /** A webhook found checkout `id`'s hook done or running, or the store away (lost-webhooks.ts). Never throws. */
  heard(id: string): Promise<void>;
  reconcile(options?: ReconcileOptions): Promise<ReconcileReport>;
  /**
   * Starts the sweep's watermark, when the store has none, at the time the handler was made:
   * called when the handler is made and after each checkout watched, so it takes effect the
   * first time the store answers. Never throws.
   */
  start(): Promise<void>;
}

/** A checkout nobody paid within this long is no longer watched (a webhook's whole life). */
const MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;
/**
 * How many hooks one call runs at once beside its reads (the sweep runs as many of its own).
 * The provider is read one checkout at a time; only the merchant's hooks overlap.
 */
const HOOKS_AT_ONCE = 4;
/** Past this age a pending checkout (an abandoned cart, a boleto) is read less often. */
const YOUNG_MS = 60 * 60 * 1000;

export interface WatchlistDeps extends Omit<LostWebhooksDeps, 'store' | 'now'> {
  /** The store's watched checkouts; undefined when it keeps none (nothing to reconcile). */
  watchStore: WatchStore | undefined;
  /** `provider.baseUrl`, for the log. */
  baseUrl: string;
  now?: () => number;
}

/** When a pending checkout is next read: each call while young, then less and less often. */
function nextCheck(checkout: Checkout, at: number): number | undefined {
  const created = Date.parse(checkout.date ?? '');
  const age = Number.isFinite(created) ? Math.max(0, at - created) : 0;
  if (age > MAX_AGE_MS) return undefined;
  return age < YOUNG_MS ? at : at + Math.min(age / 4, 6 * YOUNG_MS);
}

const emptyReport = (): ReconcileReport => ({
  checked: 0,
  ran: 0,
  open: 0,
  closed: 0,
  errors: 0,
  swept: 0,
});

/** A watchlist for a store that keeps no watched checkouts: `reconcile()` says so, once. */
function unwatched(log: Logger): Watchlist {
  let warned = false;
  return {
    watch: async () => {},
    unwatch: async () => {},
    heard: async () => {},
    start: async () => {},
    async reconcile(options = {}) {
      checkLimit(options.limit ?? 100);
      if (!warned) {
        warned = true;
        log({
          level: 'warn',
          message: 'reconcile: the store keeps no open checkouts (watch, due, unwatch)',
        });
      }
      return emptyReport();
    },
  };
}

function checkLimit(limit: number): void {
  if (!Number.isInteger(limit) || limit < 1) {
    throw new TypeError('reconcile: limit must be a whole number of checkouts, 1 or more');
  }
}

export function createWatchlist(deps: WatchlistDeps): Watchlist {
  const { watchStore, client, holdMs, log } = deps;
  if (watchStore === undefined) return unwatched(log);
  const store: WatchStore = watchStore;
  const now = deps.now ?? Date.now;
  // Reports for the watchlist and the sweep, saying when no webhook had.
  const webhooks = createLostWebhooks({ ...deps, store, now });
  const { report } = webhooks;
  /**
   * Checkouts this instance took whose report could not reach the store (it went away between
   * the take and the claim): still held for it by the take, so no other call reads them before
   * the hold ends. Read again on this instance's next call instead, once the store answers.
   */
  const unreported = new Set<string>();
  // The merchant's hash tag: the set shares a Cluster slot with the sweep's watermark.
  const set = `open:{${deps.merchantCode}}`;
  const { sweep, start } = createSweep({
    records: deps.records,
    merchantCode: deps.merchantCode,
    client,
    report,
    watch: async (id) => {
      await store.watch(set, id, now());
    },
    unwatch,
    webhookUrl: deps.webhookUrl,
    baseUrl: deps.baseUrl,
    log,
    now,
  });

  async function unwatch(id: string): Promise<void> {
    try {
      await store.unwatch(set, id);
    } catch (error) {
      // Still in the set: the next reconciliation reads it, finds its hook done, and drops it.
      log({ level: 'warn', message: `reconcile: could not unwatch ${id}: ${String(error)}` });
    }
  }

  /**
   * Reads one checkout from the provider: a final one is answered, for its hook; one that is
   * pending, gone or too old is settled here.
   */
  async function read(id: string, result: ReconcileReport): Promise<Checkout | undefined> {
    let checkout: Checkout;
    try {
      checkout = await client.checkouts.get(id);
    } catch (error) {
      if (error instanceof ProviderError && error.status === 404) {
        result.closed += 1;
        await unwatch(id);
        return undefined;
      }
      // Held until holdMs has passed, then taken again.
      result.errors += 1;
      result.open += 1;
      return undefined;
    }
    result.checked += 1;
    if (isFinalStatus(checkout.status)) return checkout;
    const at = nextCheck(checkout, now());
    if (at === undefined) {
      result.closed += 1;
      await unwatch(id);
    } else {
      result.open += 1;
      await store.watch(set, id, at);
    }
    return undefined;
  }

  /** Reports a final checkout (its hook runs once, whoever gets there first). Never throws. */
  async function finish(id: string, checkout: Checkout, result: ReconcileReport): Promise<void> {
    const outcome = await report(checkout);
    if (outcome === 'ran') result.ran += 1;
    if (outcome === 'ran' || outcome === 'already' || outcome === 'none') {
      result.closed += 1;
      await unwatch(id);
    } else {
      // Running elsewhere or failed: taken again once the hold ends. The store away: read
      // again on the next call.
      result.open += 1;
      if (outcome === 'unavailable') unreported.add(id);
    }
  }

  return {
    async watch(id, soon) {
      try {
        // Not due at once when only created: most carts are read only if they linger.
        await store.watch(set, id, soon ? now() : now() + holdMs);
      } catch (error) {
        log({
          level: 'warn',
          message: `reconcile: could not watch checkout ${id}: ${String(error)}`,
          checkoutId: id,
        });
        return;
      }
      // The store answered: the sweep's watermark starts, if it has not yet.
      await start();
    },
    start,
    unwatch,
    heard: webhooks.heard,
    async reconcile(options = {}) {
      const limit = options.limit ?? 100;
      checkLimit(limit);
      const result = emptyReport();
      // First the checkouts the store could not be told about last time (past `limit`, they
      // wait for their hold to end), then as many due ones as the limit leaves.
      const again = [...unreported].slice(0, limit);
      const taken =
        again.length < limit ? await store.due(set, now(), limit - again.length, holdMs) : [];
      unreported.clear();
      const ids = [...new Set([...again, ...taken])];
      const hooks = new Set<Promise<void>>();
      let swept: SweepResult;
      try {
        // One read at a time: the provider is asked at a steady pace, never in a burst. A
        // final checkout's hook runs beside the next reads, HOOKS_AT_ONCE at most: a slow
        // hook (the merchant's ERP, an email) holds back no other order.
        for (const id of ids) {
          const checkout = await read(id, result);
          if (checkout === undefined) continue;
          while (hooks.size >= HOOKS_AT_ONCE) await Promise.race(hooks);
          const hook = finish(id, checkout, result).finally(() => hooks.delete(hook));
          hooks.add(hook);
        }
        // Beside the hooks still running: the checkouts only the provider's list names.
        swept = await sweep(limit);
      } finally {
        // The call answers once the hooks it started have ended: `ran` counts them, and a
        // platform that stops work after the answer (a serverless cron) keeps them.
        await Promise.all(hooks);
      }
      // The orders run here before their webhook was due, whose webhook has not come since.
      await webhooks.warnOverdue(limit);
      result.swept = swept.swept;
      result.ran += swept.ran;
      result.errors += swept.errors;
      return result;
    },
  };
}
