/**
 * The sweep: reconciliation's second source, the provider's own list of checkouts. The open
 * set (reconcile.ts) holds what the store was told; what it was never told, or lost, is gone
 * from it: checkouts created while the store was unreachable (their `watch` failed), and
 * those whose entries an old primary took with it in a failover (acknowledged, never
 * replicated). The provider still has every one of them. So each `reconcile()` also reads the
 * provider's list past a watermark and hands each of this handler's checkouts it finds there
 * to the same claims as every other report: a final one is reported (its hook runs once,
 * whoever gets there first), one still pending joins the watchlist.
 *
 * The watermark is a record in the store (`sweep:{<merchant>}`, beside the watchlist, in its
 * slot on a Cluster): the creation date and id of the last checkout handled, in the provider's
 * order (date, then id). It moves only over checkouts that were handled while the store
 * answered, and never back; and not into the last SETTLE_MS, so a checkout the list shows a
 * moment late (created a moment before one it already showed) is still found. A store that
 * has no watermark yet starts it when the handler first reaches the store, at the time the
 * handler was made (`start()`, called then and after each checkout it watches): a store outage
 * in a new instance's first minute, before its first `reconcile()`, loses none of the
 * checkouts paid meanwhile. A watermark that disappears later (a store that lost its data)
 * starts again at the last one this handler saw (`place0`), never further back: the checkouts
 * paid since are found, and those handled between it (SETTLE_MS or more before the loss) and
 * the loss, whose done marks went with the data, run their hooks again; reporting every paid
 * checkout of the past to a store that forgot its claims would run all their hooks again.
 *
 * Bounded: one list call and at most `limit` checkouts handled per call, a few at a time; the
 * rest wait for the next. The provider's list takes no date filter, so its answer grows with
 * the merchant's checkouts; only those past the watermark are looked at.
 */
import { isFinalStatus } from '../../domain/checkout.ts';
import type { Checkout } from '../../schemas/index.ts';
import type { ProviderClient } from '../provider/client.ts';
import { ProviderError } from '../provider/errors.ts';
import { fixFor } from '../provider/fixes.ts';
import type { RecordStore } from '../store/types.ts';
import type { Logger } from '../types.ts';
import type { OutcomeResult } from './report.ts';

/** How long the watermark stays behind the present: a list may show a new checkout late. */
const SETTLE_MS = 10_000;
/** How many checkouts of a batch are handled at once (each may wait on its hook). */
const CONCURRENCY = 4;
/** How long the watermark is kept without a sweep (then it starts again at the present). */
const WATERMARK_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** Where the sweep has read up to: every checkout at or before it was handled. */
interface Mark {
  at: number;
  id: string;
}

const after = (a: Mark, b: Mark) => a.at > b.at || (a.at === b.at && a.id > b.id);

function parseMark(text: string | undefined): Mark | undefined {
  const match = /^(\d+) (.*)$/s.exec(text ?? '');
  return match === null ? undefined : { at: Number(match[1]), id: match[2]! };
}

const formatMark = (mark: Mark) => `${mark.at} ${mark.id}`;

export interface SweepResult {
  /** Checkouts taken from the provider's list past the watermark and handled. */
  swept: number;
  /** Hooks the sweep ran: checkouts that no other report had brought in. */
  ran: number;
  /** The list could not be read (tried again on the next call). */
  errors: number;
}

export interface SweepDeps {
  /** The store's records, where the watermark is kept; undefined when it keeps none. */
  records: RecordStore | undefined;
  merchantCode: string;
  client: ProviderClient;
  report(checkout: Checkout): Promise<OutcomeResult>;
  /** Puts a checkout in the watchlist, due now; throws when the store fails. */
  watch(id: string): Promise<void>;
  /** Takes a checkout out of the watchlist; never throws. */
  unwatch(id: string): Promise<void>;
  /** This handler's `return_url`: the checkouts that carry it are this handler's. */
  webhookUrl: string;
  /** `provider.baseUrl`, named in the log when the list cannot be read. */
  baseUrl: string;
  log: Logger;
  now: () => number;
}

/** This handler's checkout, with a date to place it by; undefined for another's. */
function markOf(checkout: Checkout, deps: SweepDeps): Mark | undefined {
  if (checkout.id == null || checkout.return_url !== deps.webhookUrl) return undefined;
  if (checkout.merchant_code != null && checkout.merchant_code !== deps.merchantCode) {
    return undefined;
  }
  const at = Date.parse(checkout.date ?? '');
  return Number.isFinite(at) ? { at, id: checkout.id } : undefined;
}

/** Handles one checkout; false when the store failed (it and later ones come again). */
async function handle(
  deps: SweepDeps,
  checkout: Checkout,
  id: string,
  result: SweepResult,
): Promise<boolean> {
  const { report, log } = deps;
  if (!isFinalStatus(checkout.status)) {
    // Pending: the watchlist reads it until it is final (it may be there already).
    await deps.watch(id);
    return true;
  }
  const outcome = await report(checkout);
  if (outcome === 'unavailable') return false;
  if (outcome === 'ran') {
    result.ran += 1;
    log({
      level: 'info',
      message: "reconcile: ran the hook of a checkout found in the provider's list",
      checkoutId: id,
    });
  }
  // Running elsewhere, or the hook threw: the watchlist tries it again after the lease.
  if (outcome === 'running' || outcome === 'failed') await deps.watch(id);
  else await deps.unwatch(id);
  return true;
}

/**
 * Handles `batch`, a few at a time: after an outage the whole backlog of orders paid
 * meanwhile is here, and each waits on its hook. Stops taking more once the store failed.
 */
async function handleAll(
  deps: SweepDeps,
  batch: readonly { checkout: Checkout; mark: Mark }[],
  result: SweepResult,
): Promise<boolean[]> {
  const handled = batch.map(() => false);
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (!failed && next < batch.length) {
      const i = next++;
      const { checkout, mark } = batch[i]!;
      // A store that throws is down like one that answers `unavailable`.
      handled[i] = await handle(deps, checkout, mark.id, result).catch(() => false);
      if (handled[i]) result.swept += 1;
      else failed = true;
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, batch.length) }, worker));
  return handled;
}

/**
 * Where the watermark moves: over the checkouts handled in a row from its start, and not into
 * the last SETTLE_MS unless a full batch needs it to make progress.
 */
function nextMark(
  batch: readonly { mark: Mark }[],
  handled: readonly boolean[],
  since: Mark,
  limit: number,
  now: number,
): Mark {
  let reached = since;
  let inRow = 0;
  for (const [i, { mark }] of batch.entries()) {
    if (!handled[i]) break;
    reached = mark;
    inRow += 1;
  }
  const settled = { at: now - SETTLE_MS, id: '' };
  const full = inRow === limit;
  return full || !after(reached, settled) ? reached : after(settled, since) ? settled : since;
}

/** The sweep of a store that keeps no records: it reads nothing, and says so once. */
function noSweep(log: SweepDeps['log']): Sweep {
  let warned = false;
  return {
    async sweep() {
      if (!warned) {
        warned = true;
        log({
          level: 'warn',
          message:
            "reconcile: the store keeps no records (read, swap), so the provider's list is not " +
            'read: a checkout whose watch failed while the store was down is not found',
        });
      }
      return { swept: 0, ran: 0, errors: 0 };
    },
    start: async () => {},
  };
}

export interface Sweep {
  sweep(limit: number): Promise<SweepResult>;
  start(): Promise<void>;
}

export function createSweep(deps: SweepDeps): Sweep {
  const { client, log, now } = deps;
  if (deps.records === undefined) return noSweep(log);
  const records: RecordStore = deps.records;
  const key = `sweep:{${deps.merchantCode}}`;
  /** When this handler was made: a store that has no watermark yet starts it here. */
  const startedAt = now();
  /** Whether this handler has seen (or written) a watermark in the store. */
  let placed = false;
  /** The last watermark this handler saw: where it starts again if the store loses it. */
  let known: Mark | undefined;

  /**
   * The first mark, when the store has none: this handler's start; or, after a store lost
   * it (a failover, a flush), the last one this handler saw, so that what was paid since is
   * still found.
   */
  async function place0(stored: string | undefined): Promise<Mark> {
    const first = known ?? { at: startedAt, id: '' };
    await advance(stored, first);
    known = first;
    placed = true;
    return first;
  }

  /** Moves the watermark forward to `to` (compare-and-set: another instance may move it too). */
  async function advance(seen: string | undefined, to: Mark): Promise<void> {
    let current = seen;
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const mark = parseMark(current);
      if (mark !== undefined && !after(to, mark)) return;
      if (await records.swap(key, current, formatMark(to), WATERMARK_TTL_MS)) return;
      current = await records.read(key);
    }
  }

  /**
   * Writes the first watermark when the store has none, once the store answers; a no-op
   * after it has. Never throws: an unreachable store is tried again on the next call.
   */
  async function start(): Promise<void> {
    if (placed) return;
    try {
      const stored = await records.read(key);
      const mark = parseMark(stored);
      if (mark === undefined) await place0(stored);
      else known = mark;
      placed = true;
    } catch {
      // Not reached yet: the next checkout watched, or the next reconcile(), tries again.
    }
  }

  async function sweep(limit: number): Promise<SweepResult> {
    const result: SweepResult = { swept: 0, ran: 0, errors: 0 };
    let stored = await records.read(key);
    let since = parseMark(stored);
    if (since === undefined) {
      // Never reached before (the store was down when the handler was made): from its start.
      since = await place0(stored);
      stored = formatMark(since);
    }
    placed = true;
    known = since;
    let listed: Checkout[];
    try {
      listed = await client.checkouts.list();
    } catch (error) {
      result.errors += 1;
      // Often the handler's first call to the provider (a timer's reconcile() at start): a
      // wrong key or address names the option to fix, as a route's log does.
      const fix = error instanceof ProviderError ? fixFor(error, deps.baseUrl) : undefined;
      log({
        level: fix === undefined ? 'warn' : 'error',
        message: `reconcile: the provider's list could not be read: ${String(error)}${fix === undefined ? '' : `; ${fix.full}`}`,
        ...(fix === undefined ? {} : { problem: fix.problem }),
      });
      return result;
    }
    const beyond = listed
      .map((checkout) => ({ checkout, mark: markOf(checkout, deps) }))
      .filter((c): c is { checkout: Checkout; mark: Mark } => c.mark !== undefined)
      .filter((c) => after(c.mark, since))
      .sort((a, b) => (after(a.mark, b.mark) ? 1 : -1));
    const batch = beyond.slice(0, limit);
    const handled = await handleAll(deps, batch, result);
    const to = nextMark(batch, handled, since, limit, now());
    if (after(to, since)) {
      await advance(stored, to);
      known = to;
    }
    return result;
  }

  return { sweep, start };
}
