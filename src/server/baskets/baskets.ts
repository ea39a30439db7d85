/**
 * One checkout per basket. A merchant's `resolveCheckout` names the basket (or order) as
 * `reference`; every request for that basket, on any instance, answers with the basket's
 * current checkout while it can still be paid with the same terms, or with its paid one,
 * and makes a new one only after a failure or expiry or when the terms changed (the stale
 * open one deactivated first, so an old tab cannot pay an old amount).
 *
 * The provider is the arbiter: a basket's checkouts are `reference`, `reference~2`, ...,
 * and the provider refuses a second checkout with a reference it has seen, so two
 * instances racing to make a basket's next checkout make one. The store only remembers
 * which attempt is current, to spare the provider a search; without it (or while it is
 * away) the provider's list by `checkout_reference` finds the same answer.
 *
 * A basket is never charged twice: an abandoned attempt that is paid late (a 3DS approval
 * in the bank's app after the shopper paid with another card) is refunded when its payment
 * is reported, whichever paid second (`paidOnce`).
 */
import { isFinalStatus } from '../../domain/checkout.ts';
import type { Checkout } from '../../schemas/index.ts';
import { PaymentHandlerError } from '../errors.ts';
import type { ResolvedCheckout } from '../options/index.ts';
import { ProviderError } from '../provider/errors.ts';
import { DONE_TTL_MS, type PaymentStore } from '../store/types.ts';
import type { CallContext, PaidCheckout } from '../types.ts';
import { type CreateDeps, type CreatedCheckout, createProviderCheckout } from './create.ts';
import {
  attemptReference,
  type BasketRecord,
  decodeRecord,
  encodeRecord,
  placeOf,
  referenceProblem,
} from './reference.ts';
import { resultPageOf, sameResultPage } from './result-page.ts';

export interface BasketDeps extends CreateDeps {
  store: PaymentStore;
}

/** A basket's checkout, and whether this call made it. */
export interface BasketCheckout {
  checkout: CreatedCheckout;
  created: boolean;
}

export interface Baskets {
  /** The basket's checkout for these terms: its open or paid one, or a new one. */
  checkoutFor(resolved: ResolvedCheckout, at?: CallContext): Promise<BasketCheckout>;
  /**
   * After checkout `id` failed or expired, its basket's next checkout, on the failed one's
   * terms; the paid one when the basket is paid. 409 while `id` can still be paid.
   */
  retry(id: string, at?: CallContext): Promise<BasketCheckout>;
  /** Whether a paid checkout is its basket's payment (`keep`) or a second one, now refunded. */
  paidOnce(checkout: PaidCheckout): Promise<'keep' | 'refunded'>;
}

/** A basket's record lives as long as the provider may still report its checkouts. */
const RECORD_TTL_MS = DONE_TTL_MS;
/** Enough for a few instances racing on one basket; more means something else is wrong. */
const ROUNDS = 5;
/** A basket's checkouts searched at the provider at most: far more than shoppers retry. */
const MAX_ATTEMPTS = 50;

const isDuplicate = (error: unknown) =>
  error instanceof ProviderError && error.errorCode === 'DUPLICATED_CHECKOUT';

/** Amounts in minor units: 10.1 and 10.10 are one amount. */
const cents = (amount: number | null | undefined) => Math.round((amount ?? Number.NaN) * 100);

/**
 * Whether an open checkout can still be paid on these terms: the same amount, currency,
 * customer and redirect, and its `valid_until` (after which the provider refuses to process
 * it while it still reads PENDING) not passed.
 */
function payableOnTerms(checkout: Checkout, resolved: ResolvedCheckout, now: number): boolean {
  const until = Date.parse(checkout.valid_until ?? '');
  if (Number.isFinite(until) && until <= now) return false;
  return (
    cents(checkout.amount) === cents(resolved.amount) &&
    checkout.currency === resolved.currency &&
    (checkout.customer_id ?? undefined) === resolved.customerId &&
    (checkout.redirect_url != null) === (resolved.redirect ?? true) &&
    sameResultPage(resultPageOf(checkout.redirect_url), resolved.resultPage)
  );
}

/** The terms a checkout was made on, to make the next one of its basket alike. */
function termsOf(checkout: Checkout, basket: string, now: number): ResolvedCheckout {
  const lifetime = Date.parse(checkout.valid_until ?? '') - Date.parse(checkout.date ?? '');
  return {
    reference: basket,
    amount: checkout.amount ?? Number.NaN,
    currency: checkout.currency ?? '',
    redirect: checkout.redirect_url != null,
    ...resultPageTerm(checkout.redirect_url),
    ...(checkout.description == null ? {} : { description: checkout.description }),
    ...(checkout.customer_id == null ? {} : { customerId: checkout.customer_id }),
    ...(checkout.purpose == null ? {} : { purpose: checkout.purpose }),
    // As long to pay as the first one gave, counted from now.
    ...(Number.isFinite(lifetime) && lifetime > 0
      ? { validUntil: new Date(now + lifetime).toISOString() }
      : {}),
  };
}

function resultPageTerm(redirectUrl: string | null | undefined): { resultPage?: string } {
  const resultPage = resultPageOf(redirectUrl);
  return resultPage === undefined ? {} : { resultPage };
}

/** When a checkout was paid: its successful transaction's time. */
function paidAt(checkout: Checkout): number {
  const payment = checkout.transactions?.find((t) => t.status === 'SUCCESSFUL');
  const at = Date.parse(payment?.timestamp ?? checkout.date ?? '');
  return Number.isFinite(at) ? at : Number.POSITIVE_INFINITY;
}

export function createBaskets(deps: BasketDeps): Baskets {
  const { config, client, store } = deps;
  const { log } = config;
  const keyOf = (basket: string) => `basket:${config.provider.merchantCode}:${basket}`;

  /** What the store remembers of a basket; undefined when it keeps nothing or is away. */
  async function remembered(basket: string): Promise<BasketRecord | undefined> {
    if (store.read === undefined) return undefined;
    try {
      return decodeRecord(await store.read(keyOf(basket)));
    } catch (error) {
      log({ level: 'warn', message: `baskets: the store could not be read: ${String(error)}` });
      return undefined;
    }
  }

  /**
   * Moves the store's record of a basket forward to `record`, never back; unless `stale`:
   * the record names a checkout the provider no longer knows (a sandbox reset).
   */
  async function remember(basket: string, record: BasketRecord, stale = false): Promise<void> {
    if (store.read === undefined || store.swap === undefined) return;
    const key = keyOf(basket);
    try {
      for (let round = 0; round < ROUNDS; round += 1) {
        const raw = await store.read(key);
        const known = decodeRecord(raw);
        if (!stale && known !== undefined && known.attempt >= record.attempt) return;
        const paid = stale ? undefined : known?.paid;
        const next = paid === undefined ? record : { ...record, paid };
        if (await store.swap(key, raw, encodeRecord(next), RECORD_TTL_MS)) return;
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

  /** Makes the basket's `attempt`th checkout; undefined when another request made it first. */
  async function make(
    resolved: ResolvedCheckout,
    basket: string,
    attempt: number,
    at?: CallContext,
    stale = false,
  ): Promise<CreatedCheckout | undefined> {
    try {
      const checkout = await createProviderCheckout(
        deps,
        resolved,
        attemptReference(basket, attempt),
        at,
      );
      await remember(basket, { id: checkout.id, attempt }, stale);
      return checkout;
    } catch (error) {
      if (isDuplicate(error)) return undefined;
      throw error;
    }
  }

  /** Deactivates a stale open checkout; one already being paid stays watched instead. */
  async function retire(checkout: CreatedCheckout): Promise<void> {
    try {
      await client.checkouts.deactivate(checkout.id);
    } catch (error) {
      if (!(error instanceof ProviderError && error.status === 409)) throw error;
      // Processed (a boleto issued, say): it may still be paid; paidOnce refunds it then.
      log({
        level: 'warn',
        message: 'baskets: a stale checkout could not be deactivated; it stays watched',
        checkoutId: checkout.id,
      });
    }
  }

  async function checkoutFor(
    resolved: ResolvedCheckout,
    at?: CallContext,
  ): Promise<BasketCheckout> {
    const basket = resolved.reference ?? crypto.randomUUID();
    const problem = referenceProblem(basket);
    if (problem !== undefined) {
      log({
        level: 'error',
        message: `resolveCheckout returned a reference that ${problem}`,
        field: 'reference',
      });
      throw new PaymentHandlerError(
        500,
        'INVALID_RESOLVED_CHECKOUT',
        'The order could not be priced',
      );
    }
    let current = resolved.reference === undefined ? undefined : await remembered(basket);
    let stale = false;
    for (let round = 0; round < ROUNDS; round += 1) {
      if (current === undefined) {
        const made = await make(resolved, basket, 1, at, stale);
        if (made !== undefined) return { checkout: made, created: true };
        current = await latest(basket, 1, at, stale);
        continue;
      }
      let found: Checkout;
      try {
        found = await client.checkouts.get(current.id, at);
      } catch (error) {
        if (!(error instanceof ProviderError && error.status === 404)) throw error;
        // The store remembers a checkout the provider does not know: start from the provider.
        current = undefined;
        stale = true;
        continue;
      }
      const checkout = { ...found, id: current.id };
      if (checkout.status === 'PAID') return { checkout, created: false };
      if (current.paid !== undefined) {
        // Paid by an earlier attempt (a late 3DS approval) while this one was made: the
        // basket is paid, and nothing is left open to pay it again.
        const paid = await client.checkouts.get(current.paid, at);
        if (paid.status === 'PAID') {
          if (!isFinalStatus(checkout.status)) await retire(checkout);
          return { checkout: { ...paid, id: current.paid }, created: false };
        }
      }
      if (!isFinalStatus(checkout.status)) {
        if (payableOnTerms(checkout, resolved, Date.now())) return { checkout, created: false };
        await retire(checkout);
      }
      const next = current.attempt + 1;
      const made = await make(resolved, basket, next, at);
      if (made !== undefined) return { checkout: made, created: true };
      current = await latest(basket, next, at);
    }
    throw new PaymentHandlerError(409, 'CONFLICT', 'This basket is changing; try again');
  }

  async function retry(id: string, at?: CallContext): Promise<BasketCheckout> {
    const found = await client.checkouts.get(id, at);
    const checkout = { ...found, id };
    if (checkout.status === 'PAID') return { checkout, created: false };
    if (!isFinalStatus(checkout.status)) {
      throw new PaymentHandlerError(409, 'CONFLICT', 'This checkout can still be paid');
    }
    const { basket, attempt } = placeOf(checkout.checkout_reference ?? id);
    // The basket may have moved on (another tab retried, or its amount changed): its latest
    // checkout decides, and the next one is made on the latest terms.
    const known = await remembered(basket);
    const last =
      known !== undefined && known.attempt > attempt
        ? { ...(await client.checkouts.get(known.id, at)), id: known.id }
        : checkout;
    return checkoutFor(termsOf(last, basket, Date.now()), at);
  }

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
  async function keeperFromStore(checkout: PaidCheckout, basket: string): Promise<Checkout> {
    const { read, swap } = store as Required<Pick<PaymentStore, 'read' | 'swap'>>;
    const key = keyOf(basket);
    for (let round = 0; round < ROUNDS; round += 1) {
      const raw = await read.call(store, key);
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
      if (await swap.call(store, key, raw, encodeRecord(next), RECORD_TTL_MS)) return checkout;
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
          store.read !== undefined && store.swap !== undefined
            ? await keeperFromStore(checkout, basket)
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

  return { checkoutFor, retry, paidOnce };
}
