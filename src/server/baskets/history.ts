/**
 * Where a basket stands: which of its checkouts is current, as the store remembers it (moved
 * forward only, by compare-and-set) and as the provider lists it by `checkout_reference`
 * (`reference`, `reference~2`, ...), which decides whenever the store is empty or away.
 */
import type { Checkout } from '../../schemas/index.ts';
import { PaymentHandlerError } from '../errors.ts';
import { DONE_TTL_MS, type RecordStore } from '../store/types.ts';
import type { CallContext } from '../types.ts';
import type { CreateDeps } from './create.ts';
import { attemptReference, type BasketRecord, decodeRecord, encodeRecord } from './reference.ts';

export interface BasketDeps extends CreateDeps {
  /** The store's records; undefined when it keeps none (the provider's list decides). */
  records: RecordStore | undefined;
}

/** A basket's record lives as long as the provider may still report its checkouts. */
export const RECORD_TTL_MS = DONE_TTL_MS;
/** Enough for a few instances racing on one basket; more means something else is wrong. */
export const ROUNDS = 5;
/** A basket's checkouts searched at the provider at most: far more than shoppers retry. */
const MAX_ATTEMPTS = 50;

export interface BasketHistory {
  /** The store's key for a basket's record. */
  keyOf(basket: string): string;
  /** What the store remembers of a basket; undefined when it keeps nothing or is away. */
  remembered(basket: string): Promise<BasketRecord | undefined>;
  /**
   * Moves the store's record of a basket forward to `record`, never back; unless `stale`:
   * the record names a checkout the provider no longer knows (a sandbox reset).
   */
  remember(basket: string, record: BasketRecord, stale?: boolean): Promise<void>;
  /** The basket's checkouts at the provider, attempt `from` onwards, oldest first. */
  listed(basket: string, from: number, at?: CallContext): Promise<Checkout[]>;
  /** The basket's current checkout as the provider has it, from attempt `from` on. */
  latest(basket: string, from: number, at?: CallContext, stale?: boolean): Promise<BasketRecord>;
}

export function createBasketHistory(deps: BasketDeps): BasketHistory {
  const { config, client, records } = deps;
  const { log } = config;
  const keyOf = (basket: string) => `basket:${config.provider.merchantCode}:${basket}`;

  /** What the store remembers of a basket; undefined when it keeps nothing or is away. */
  async function remembered(basket: string): Promise<BasketRecord | undefined> {
    if (records === undefined) return undefined;
    try {
      return decodeRecord(await records.read(keyOf(basket)));
    } catch (error) {
      log({ level: 'warn', message: `baskets: the store could not be read: ${String(error)}` });
      return undefined;
    }
  }

  /**
   * Moves the store's record of a basket forward to `record`, never back, keeping what it
   * says of the basket (who paid it, who named it); unless `stale`: the record names a
   * checkout the provider no longer knows (a sandbox reset), and starts again.
   */
  async function remember(basket: string, record: BasketRecord, stale = false): Promise<void> {
    if (records === undefined) return;
    const key = keyOf(basket);
    try {
      for (let round = 0; round < ROUNDS; round += 1) {
        const raw = await records.read(key);
        const known = decodeRecord(raw);
        if (!stale && known !== undefined && known.attempt >= record.attempt) return;
        const next: BasketRecord = { ...record };
        if (!stale && known?.paid !== undefined) next.paid = known.paid;
        if (!stale && known?.handlerNamed) next.handlerNamed = true;
        if (await records.swap(key, raw, encodeRecord(next), RECORD_TTL_MS)) return;
      }
    } catch (error) {
      // The provider's records still say which attempt is current.
      log({ level: 'warn', message: `baskets: the store could not be written: ${String(error)}` });
    }
  }

  /** The basket's checkouts at the provider, attempt `from` onwards, oldest first. */
  async function listed(basket: string, from: number, at?: CallContext): Promise<Checkout[]> {
    const found: Checkout[] = [];
    for (let attempt = from; attempt <= MAX_ATTEMPTS; attempt += 1) {
      const [checkout] = await client.checkouts.list(
        { checkout_reference: attemptReference(basket, attempt) },
        at,
      );
      if (checkout?.id == null) break;
      found.push(checkout);
    }
    return found;
  }

  /** The basket's current checkout as the provider has it, from attempt `from` on. */
  async function latest(
    basket: string,
    from: number,
    at?: CallContext,
    stale = false,
  ): Promise<BasketRecord> {
    const found = await listed(basket, from, at);
    const last = found.at(-1);
    if (last?.id == null) {
      // Refused as a duplicate, yet not listed: the provider contradicts itself.
      throw new PaymentHandlerError(409, 'CONFLICT', 'This basket is changing; try again');
    }
    const record = { id: last.id, attempt: from + found.length - 1 };
    await remember(basket, record, stale);
    return record;
  }

  return { keyOf, remembered, remember, listed, latest };
}
