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
 * is reported, whichever paid second (`paidOnce`, paid-once.ts). Where a basket stands, in
 * the store and at the provider, is history.ts.
 */
import { isFinalStatus } from '../../domain/checkout.ts';
import { roundToMinorUnit } from '../../schemas/currencies.ts';
import type { Checkout } from '../../schemas/index.ts';
import { PaymentHandlerError } from '../errors.ts';
import type { ResolvedCheckout } from '../options/index.ts';
import { ProviderError } from '../provider/errors.ts';
import type { CallContext, PaidCheckout } from '../types.ts';
import { type CreatedCheckout, createBody, createProviderCheckout } from './create.ts';
import { type BasketDeps, createBasketHistory, ROUNDS } from './history.ts';
import { createPaidOnce } from './paid-once.ts';
import { attemptReference, placeOf, referenceProblem } from './reference.ts';

export type { BasketDeps } from './history.ts';

import { resultPageOf, sameResultPage } from './result-page.ts';

/** A basket's checkout, and whether this call made it. */
export interface BasketCheckout {
  checkout: CreatedCheckout;
  created: boolean;
}

/**
 * Called once, before a call makes a new checkout (or retires a stale one to make it): the
 * card-testing limit on creations, which may refuse by throwing. Finding the basket's
 * checkout calls nothing.
 */
export type BeforeMaking = () => Promise<void>;

export interface Baskets {
  /** The basket's checkout for these terms: its open or paid one, or a new one. */
  checkoutFor(
    resolved: ResolvedCheckout,
    at?: CallContext,
    beforeMaking?: BeforeMaking,
  ): Promise<BasketCheckout>;
  /**
   * After checkout `id` failed or expired, its basket's next checkout, on the failed one's
   * terms; the paid one when the basket is paid. 409 while `id` can still be paid.
   */
  retry(
    id: string,
    at?: CallContext,
    beforeMaking?: BeforeMaking,
    owner?: (basket: string) => Promise<void>,
  ): Promise<BasketCheckout>;
  /** Whether a paid checkout is its basket's payment (`keep`) or a second one, now refunded. */
  paidOnce(checkout: PaidCheckout): Promise<'keep' | 'refunded'>;
}

const isDuplicate = (error: unknown) =>
  error instanceof ProviderError && error.errorCode === 'DUPLICATED_CHECKOUT';

/**
 * Whether an open checkout can still be paid on these terms: the same amount, currency,
 * customer, purpose (a purchase saves no card; a checkout made to save one saves it) and
 * redirect, and its `valid_until` (after which the provider refuses to process it while it
 * still reads PENDING) not passed.
 */
function payableOnTerms(checkout: Checkout, resolved: ResolvedCheckout, now: number): boolean {
  const until = Date.parse(checkout.valid_until ?? '');
  if (Number.isFinite(until) && until <= now) return false;
  return (
    checkout.currency === resolved.currency &&
    // In the currency's minor units: 10.1 and 10.10 EUR are one amount, 5.125 and 5.126 KWD two.
    roundToMinorUnit(checkout.amount ?? Number.NaN, resolved.currency) ===
      roundToMinorUnit(resolved.amount, resolved.currency) &&
    (checkout.customer_id ?? undefined) === resolved.customerId &&
    (checkout.purpose ?? 'CHECKOUT') === (resolved.purpose ?? 'CHECKOUT') &&
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

export function createBaskets(deps: BasketDeps): Baskets {
  const { config, client } = deps;
  const { log } = config;
  const history = createBasketHistory(deps);
  const { remembered, remember, latest } = history;

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
      // A basket the handler named: only its first record says so (remember keeps it).
      const handlerNamed = resolved.reference === undefined ? { handlerNamed: true as const } : {};
      await remember(basket, { id: checkout.id, attempt, ...handlerNamed }, stale);
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
    beforeMaking?: BeforeMaking,
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
        `The order could not be priced: reference ${problem}`,
        'reference',
      );
    }
    // Refused before the basket's open checkout is retired for it: it stays payable.
    createBody(config, resolved, basket);
    let current = resolved.reference === undefined ? undefined : await remembered(basket);
    let stale = false;
    // Once per call, however many rounds a race with another request takes.
    let asked: Promise<void> | undefined;
    const aboutToMake = () => {
      asked ??= beforeMaking?.() ?? Promise.resolve();
      return asked;
    };
    for (let round = 0; round < ROUNDS; round += 1) {
      if (current === undefined) {
        await aboutToMake();
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
        await aboutToMake();
        await retire(checkout);
      } else {
        await aboutToMake();
      }
      const next = current.attempt + 1;
      const made = await make(resolved, basket, next, at);
      if (made !== undefined) return { checkout: made, created: true };
      current = await latest(basket, next, at);
    }
    throw new PaymentHandlerError(409, 'CONFLICT', 'This basket is changing; try again');
  }

  async function retry(
    id: string,
    at?: CallContext,
    beforeMaking?: BeforeMaking,
    owner?: (basket: string) => Promise<void>,
  ): Promise<BasketCheckout> {
    const found = await client.checkouts.get(id, at);
    const checkout = { ...found, id };
    const { basket, attempt } = placeOf(checkout.checkout_reference ?? id);
    const known = await remembered(basket);
    // Only the basket's shopper acts on it (the merchant says who: authorizeBasket), unless
    // the handler named the basket itself. Only the store's record tells (a merchant's
    // reference may be any string); without it (the store away, a record gone) the merchant
    // is asked.
    if (known?.handlerNamed !== true) await owner?.(basket);
    if (checkout.status === 'PAID') return { checkout, created: false };
    if (!isFinalStatus(checkout.status)) {
      throw new PaymentHandlerError(409, 'CONFLICT', 'This checkout can still be paid');
    }
    // The basket may have moved on (another tab retried, or its amount changed): its latest
    // checkout decides, and the next one is made on the latest terms.
    const last =
      known !== undefined && known.attempt > attempt
        ? { ...(await client.checkouts.get(known.id, at)), id: known.id }
        : checkout;
    return checkoutFor(termsOf(last, basket, Date.now()), at, beforeMaking);
  }

  return { checkoutFor, retry, paidOnce: createPaidOnce(deps, history) };
}
