/**
 * A basket is never charged twice: an abandoned attempt that is paid late (a 3DS approval in
 * the bank's app after the shopper paid with another card) is refunded when its payment is
 * reported, whichever paid second. The first payment the store records keeps the basket;
 * without the store, the earliest payment by its transaction's time at the provider.
 */
import type { Checkout } from '../../schemas/index.ts';
import { ProviderError } from '../provider/errors.ts';
import type { RecordStore } from '../store/types.ts';
import type { PaidCheckout } from '../types.ts';
import { type BasketDeps, type BasketHistory, RECORD_TTL_MS, ROUNDS } from './history.ts';
import { type BasketRecord, decodeRecord, encodeRecord, placeOf } from './reference.ts';

/** When a checkout was paid: its successful transaction's time. */
function paidAt(checkout: Checkout): number {
  const payment = checkout.transactions?.find((t) => t.status === 'SUCCESSFUL');
  const at = Date.parse(payment?.timestamp ?? checkout.date ?? '');
  return Number.isFinite(at) ? at : Number.POSITIVE_INFINITY;
}

/** Whether a paid checkout is its basket's payment (`keep`) or a second one, now refunded. */
export function createPaidOnce(
  deps: BasketDeps,
  history: BasketHistory,
): (checkout: PaidCheckout) => Promise<'keep' | 'refunded'> {
  const { config, client, records } = deps;
  const { log } = config;
  const { keyOf, listed } = history;

  async function refund(checkout: PaidCheckout, keeper: Checkout): Promise<void> {
    const payment =
      checkout.transaction_id ??
      checkout.transactions?.find((t) => t.status === 'SUCCESSFUL')?.id ??
      undefined;
    if (payment == null)
      throw new Error(`checkout ${checkout.id} is PAID with no payment to refund`);
    try {
      await client.transactions.refund(payment);
    } catch (error) {
      // Refunded already (an earlier run whose answer was lost): nothing left to do.
      if (!(error instanceof ProviderError && error.status === 409)) throw error;
    }
    log({
      level: 'warn',
      message: `basket ${placeOf(checkout.checkout_reference ?? '').basket} was already paid by checkout ${keeper.id}: this second payment was refunded`,
      event: 'duplicate-payment-refunded',
      checkoutId: checkout.id,
      paidCheckoutId: keeper.id ?? undefined,
    });
  }

  /**
   * Without records in the store: the provider's list of the basket's checkouts, and the
   * earliest payment by its transaction's time is the basket's.
   */
  async function keeperFromProvider(checkout: PaidCheckout, basket: string): Promise<Checkout> {
    const siblings = await listed(basket, 1);
    const paid = [checkout, ...siblings.filter((c) => c.id !== checkout.id && c.status === 'PAID')];
    return paid.reduce((best, c) => {
      const order = paidAt(c) - paidAt(best);
      const earlier =
        placeOf(c.checkout_reference ?? '').attempt <
        placeOf(best.checkout_reference ?? '').attempt;
      return order < 0 || (order === 0 && earlier) ? c : best;
    });
  }

  /**
   * The checkout that paid the basket: the first one reported paid, as the store records it
   * (by compare-and-set, so two reports of two payments at once agree).
   */
  async function keeperFromStore(
    checkout: PaidCheckout,
    basket: string,
    store: RecordStore,
  ): Promise<Checkout> {
    const key = keyOf(basket);
    for (let round = 0; round < ROUNDS; round += 1) {
      const raw = await store.read(key);
      const known = decodeRecord(raw);
      if (known?.paid === checkout.id) return checkout;
      if (known?.paid !== undefined) {
        const keeper = await client.checkouts.get(known.paid);
        if (keeper.status === 'PAID') return keeper;
        // A record that names an unpaid checkout (written over a reset): this one is first.
      }
      const { attempt } = placeOf(checkout.checkout_reference ?? '');
      const next: BasketRecord = {
        ...(known ?? { id: checkout.id, attempt }),
        paid: checkout.id,
      };
      if (await store.swap(key, raw, encodeRecord(next), RECORD_TTL_MS)) return checkout;
    }
    throw new Error(`basket ${basket} kept changing while its payment was recorded`);
  }

  async function paidOnce(checkout: PaidCheckout): Promise<'keep' | 'refunded'> {
    const reference = checkout.checkout_reference;
    if (reference == null) return 'keep';
    const { basket } = placeOf(reference);
    try {
      let keeper: Checkout;
      try {
        keeper =
          records !== undefined
            ? await keeperFromStore(checkout, basket, records)
            : await keeperFromProvider(checkout, basket);
      } catch (error) {
        // The store is away (a failover, an outage): the provider's records decide, so the
        // order is not held up. The two rules agree unless two checkouts of one basket were
        // both paid and reported on either side of the outage.
        log({ level: 'warn', message: `baskets: ${String(error)}; asking the provider` });
        keeper = await keeperFromProvider(checkout, basket);
      }
      if (keeper.id === checkout.id) return 'keep';
      await refund(checkout, keeper);
      return 'refunded';
    } catch (error) {
      log({
        level: 'error',
        message: `baskets: could not check that basket ${basket} is paid once: ${String(error)}; tried again on the next report`,
        checkoutId: checkout.id,
      });
      throw error;
    }
  }

  return paidOnce;
}
