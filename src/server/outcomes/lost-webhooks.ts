/**
 * The lost-webhook warning (`no-webhook`): an operator learns that the provider's webhooks do
 * not reach the handler, from the orders `reconcile()` fulfils in their place.
 *
 * A webhook reports a final checkout within seconds. `reconcile()` running a hook for one that
 * ended WEBHOOK_LATE_MS or more before says at once that no webhook had. One it runs sooner (a
 * checkout paid through the handler is due at once, and a shop may reconcile every few
 * seconds) proves nothing yet: its webhook may merely be slower than the reconcile timer. So
 * it joins a set of its own in the store (`late:{merchant}`), due WEBHOOK_LATE_MS after the
 * checkout ended; a webhook that finds a hook done or running leaves a record that it came
 * (`webhook:<merchant>:<id>`, HEARD_MS), on whichever instance it arrives, before or after;
 * one that finds the store away (answered 503) is remembered by the instance it reached.
 * A later `reconcile()` call takes the due ones: each without that record had no webhook in
 * that time, and is read from the provider again and named. Without a records part in the
 * store (nothing shared to leave the record in) only the first warning is said.
 */
import type { Checkout } from '../../schemas/index.ts';
import type { ProviderClient } from '../provider/client.ts';
import { ProviderError } from '../provider/errors.ts';
import type { RecordStore, WatchStore } from '../store/types.ts';
import type { Logger } from '../types.ts';
import { problemEntry } from './problems.ts';
import type { OutcomeResult } from './report.ts';

/**
 * A webhook reports a final checkout within seconds: by this long after it ended, a webhook
 * that has not come is taken as lost.
 */
const WEBHOOK_LATE_MS = 20_000;
/**
 * How long a webhook's record is kept: a checkout taken from the set later than this after it
 * ended is not said (its webhook's record may be gone), so `reconcile()` calls further apart
 * say only the first warning.
 */
const HEARD_MS = 60 * 60 * 1000;
/** How many webhooks this instance remembers itself (below): a bound on its memory. */
const HEARD_HERE_MAX = 10_000;

export interface LostWebhooks {
  /**
   * `reconcile()`'s report of a final checkout (its watchlist's and its sweep's): runs its
   * hook through `report`, and warns when no webhook had run it, at once or once it is due.
   */
  report(checkout: Checkout): Promise<OutcomeResult>;
  /**
   * A webhook came for checkout `id` and found its hook done or running, or the store away.
   * Never throws.
   */
  heard(id: string): Promise<void>;
  /**
   * Warns of at most `limit` checkouts `report` ran before their webhook was due, whose
   * webhook has still not come. Never throws: what it cannot read now is read on a later call.
   */
  warnOverdue(limit: number): Promise<void>;
}

export interface LostWebhooksDeps {
  store: WatchStore;
  /** The store's records (the sweep's watermark, the webhooks' notes); undefined when it keeps none. */
  records: RecordStore | undefined;
  merchantCode: string;
  client: ProviderClient;
  report(checkout: Checkout): Promise<OutcomeResult>;
  /** How long a reconciler holds a checkout it took (the hook's lease). */
  holdMs: number;
  /**
   * `publicUrl + '/webhook'`: the `return_url` of this handler's checkouts, which tells them
   * apart in the provider's list, and where the provider should be delivering.
   */
  webhookUrl: string;
  log: Logger;
  now: () => number;
}

/** When a checkout ended, by its last transaction (NaN when it has none: never said). */
const endedAt = (checkout: Checkout) => Date.parse(checkout.transactions?.at(-1)?.timestamp ?? '');

const hookOf = (checkout: Checkout) => (checkout.status === 'PAID' ? 'onPaid' : 'onFailed');

export function createLostWebhooks(deps: LostWebhooksDeps): LostWebhooks {
  const { store, records, client, log, now, webhookUrl } = deps;
  // The merchant's hash tag, as the watchlist's own set.
  const set = `late:{${deps.merchantCode}}`;
  const heardKey = (id: string) => `webhook:${deps.merchantCode}:${id}`;
  // The webhooks whose note the store could not take (it was away: they were answered 503),
  // by id, with when each note would have ended: this instance knows they came, and says
  // nothing of the provider not reaching it when reconcile() runs their hooks later.
  const heardHere = new Map<string, number>();
  const cameHere = (id: string) => (heardHere.get(id) ?? 0) > now();

  /** Says that no webhook had run `checkout`'s hook `ageMs` after it ended. */
  function warn(checkout: Checkout, ageMs: number, ranFirst: boolean): void {
    const id = String(checkout.id);
    log(problemEntry(hookOf(checkout), id, { kind: 'no-webhook', ageMs, webhookUrl, ranFirst }));
  }

  /** Whether no webhook came for `id`: undefined when the store cannot tell now. */
  async function unheard(id: string): Promise<boolean | undefined> {
    try {
      return (await records?.read(heardKey(id))) === undefined;
    } catch {
      return undefined;
    }
  }

  return {
    async report(checkout) {
      const ended = endedAt(checkout);
      const ageMs = now() - ended;
      const outcome = await deps.report(checkout);
      if (outcome !== 'ran') return outcome;
      // No end known (no transaction): nothing to measure, nothing said.
      if (!Number.isFinite(ended)) return outcome;
      if (ageMs >= WEBHOOK_LATE_MS) {
        if (!cameHere(String(checkout.id))) warn(checkout, ageMs, false);
      } else if (records !== undefined) {
        // Sooner than a webhook was due: asked again once it is.
        const id = String(checkout.id);
        await store.watch(set, id, ended + WEBHOOK_LATE_MS).catch(() => undefined);
      }
      return outcome;
    },
    async heard(id) {
      try {
        await records?.write(heardKey(id), '1', HEARD_MS);
      } catch {
        heardHere.delete(id);
        heardHere.set(id, now() + HEARD_MS);
        // The oldest goes first (a Map keeps its order of insertion).
        for (const oldest of heardHere.keys()) {
          if (heardHere.size <= HEARD_HERE_MAX) break;
          heardHere.delete(oldest);
        }
      }
    },
    async warnOverdue(limit) {
      if (records === undefined) return;
      let ids: string[];
      try {
        ids = await store.due(set, now(), limit, deps.holdMs);
      } catch {
        return;
      }
      for (const id of ids) {
        // Not known now: held until holdMs has passed, then taken again.
        const lost = cameHere(id) ? false : await unheard(id);
        if (lost === undefined) continue;
        if (lost) {
          let checkout: Checkout;
          try {
            checkout = await client.checkouts.get(id);
            // Over HEARD_MS after it ended, a webhook's record may have expired: not known,
            // not said (reconcile() calls an hour apart warn at once of nearly every order).
            const ageMs = now() - endedAt(checkout);
            if (ageMs < HEARD_MS) warn(checkout, ageMs, true);
          } catch (error) {
            // Gone: nothing to say. Else as above.
            if (!(error instanceof ProviderError && error.status === 404)) continue;
          }
        }
        await store.unwatch(set, id).catch(() => undefined);
      }
    },
  };
}
