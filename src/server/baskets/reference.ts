/**
 * A basket's checkouts and their references. The provider refuses a second checkout with
 * the same `checkout_reference` (409 `DUPLICATED_CHECKOUT`), yet a basket needs a new
 * checkout after a decline: so its first checkout carries the merchant's reference as it
 * is, and each later one the reference with `~2`, `~3` ... appended. The basket of any
 * checkout is read back from its reference alone, which is what lets the provider's own
 * records stand in for the store's.
 */
import { isRecord, parseJson } from '../../shared/record.ts';

/** The provider's limit on `checkout_reference`. */
const MAX_REFERENCE = 90;
/** Room for `~` and the attempt number (a basket never takes a thousand tries). */
export const MAX_BASKET_REFERENCE = MAX_REFERENCE - 4;

const ATTEMPT = /^(.+)~([2-9]|[1-9]\d{1,2})$/;

/** What a checkout's reference says: its basket, and which of the basket's checkouts it is. */
export interface BasketPlace {
  basket: string;
  attempt: number;
}

/** The reference of a basket's `attempt`th checkout. */
export function attemptReference(basket: string, attempt: number): string {
  return attempt === 1 ? basket : `${basket}~${attempt}`;
}

/** The basket and attempt a checkout's reference names. */
export function placeOf(reference: string): BasketPlace {
  const match = ATTEMPT.exec(reference);
  return match === null
    ? { basket: reference, attempt: 1 }
    : { basket: match[1] as string, attempt: Number(match[2]) };
}

/**
 * Why a merchant's reference cannot name a basket, or undefined when it can: it must fit
 * the provider's limit with room for an attempt, and must not itself look like one.
 */
export function referenceProblem(reference: string): string | undefined {
  if (reference.length === 0) return 'must not be empty';
  if (reference.length > MAX_BASKET_REFERENCE) {
    return `must be at most ${MAX_BASKET_REFERENCE} characters (the handler appends ~2, ~3 for a basket's later checkouts)`;
  }
  if (ATTEMPT.test(reference)) {
    return 'must not end with ~ and a number: the handler appends that for a basket’s later checkouts';
  }
  return undefined;
}

/** What the store keeps per basket: its current checkout, and the one that paid it. */
export interface BasketRecord {
  id: string;
  attempt: number;
  /** The checkout whose payment is the basket's: set once, by the first one reported paid. */
  paid?: string;
  /**
   * The handler named the basket itself (`resolveCheckout` gave no reference): no merchant's
   * basket, so `authorizeBasket` is not asked. Set with its first record only.
   */
  handlerNamed?: true;
}

export function encodeRecord(record: BasketRecord): string {
  return JSON.stringify(record);
}

/** The record a store answered, or undefined when it holds something else. */
export function decodeRecord(text: string | undefined): BasketRecord | undefined {
  const value = parseJson(text);
  if (!isRecord(value) || typeof value.id !== 'string') return undefined;
  const { attempt, paid } = value;
  if (typeof attempt !== 'number' || !Number.isInteger(attempt) || attempt < 1) return undefined;
  return {
    id: value.id,
    attempt,
    ...(typeof paid === 'string' ? { paid } : {}),
    ...(value.handlerNamed === true ? { handlerNamed: true } : {}),
  };
}
