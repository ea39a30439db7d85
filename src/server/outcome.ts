/**
 * Runs `onPaid`/`onFailed` once per checkout, whichever path (return page,
 * webhook, polling, the process answer) reports the final status first.
 */
import type { Checkout } from '../schemas/index.ts';
import type { IdempotencyStore } from './idempotency.ts';

export type OutcomeHook = (checkout: Checkout) => unknown;

export interface OutcomeOptions {
  merchantCode: string;
  store: IdempotencyStore;
  onPaid?: OutcomeHook | undefined;
  onFailed?: OutcomeHook | undefined;
  /** Told about a hook (or the store's claim) that threw; the error is not re-thrown. */
  onHookError(hook: 'onPaid' | 'onFailed', checkoutId: string, error: unknown): void;
}

/** `ran`: this call ran the hook; `failed`: the hook threw and was released for a retry. */
export type OutcomeResult = 'none' | 'ran' | 'already' | 'failed';

/**
 * Returns `report(checkout)`. Policy for a hook that throws: its claim is
 * released, so the next report of the same outcome (the provider retries a
 * webhook that did not get a 2xx; the widget keeps polling) runs it again.
 * A hook is therefore called again only after a call of it threw; make it
 * safe to resume (e.g. upsert the order row) rather than assume a clean slate.
 * While a hook runs, concurrent reports see the claim and do not wait for it.
 */
export function createOutcomeReporter(options: OutcomeOptions) {
  return async function report(checkout: Checkout): Promise<OutcomeResult> {
    const id = checkout.id;
    if (id == null) return 'none';
    let hook: OutcomeHook | undefined;
    let name: 'onPaid' | 'onFailed';
    if (checkout.status === 'PAID') {
      hook = options.onPaid;
      name = 'onPaid';
    } else if (checkout.status === 'FAILED' || checkout.status === 'EXPIRED') {
      // An expired checkout will never be paid either: the merchant may release the order.
      hook = options.onFailed;
      name = 'onFailed';
    } else {
      return 'none';
    }
    if (hook === undefined) return 'none';
    // The merchant code scopes keys when several handlers share one store.
    const key = `payment-widget:${name}:${options.merchantCode}:${id}`;
    let won: boolean;
    try {
      won = await options.store.claim(key);
    } catch (error) {
      // A shared store that is down must not fail the confirmation itself;
      // reporting 'failed' makes the webhook ask the provider to deliver again.
      options.onHookError(name, id, error);
      return 'failed';
    }
    if (!won) return 'already';
    try {
      await hook(checkout);
      return 'ran';
    } catch (error) {
      await options.store.release(key);
      options.onHookError(name, id, error);
      return 'failed';
    }
  };
}
