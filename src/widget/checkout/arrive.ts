/**
 * Arriving at a checkout: which one the element pays (read by id, or made from its order), and
 * which methods it offers (what the handler accepts, narrowed by the element's
 * payment-methods and by the checkout itself).
 */
import type { CheckoutView } from '../../next-step/types.ts';
import { METHOD_IDS, METHODS, type PaymentMethodId } from '../methods/index.ts';
import type { MethodForm } from '../methods/types.ts';
import { BackendError, createCheckout, getCheckout } from './backend.ts';

/**
 * The checkout named by `checkoutId`, else the one made from `order`; neither is an error
 * once `settled` resolves (../arrival.ts pageSettled(), which the pay part carries: only a
 * page that names no checkout yet waits for it).
 */
export async function arriveAt(
  endpoint: string,
  given: { checkoutId: string | undefined; order: unknown },
  signal: AbortSignal,
  settled: (signal: AbortSignal) => Promise<void>,
): Promise<CheckoutView> {
  if (given.checkoutId) return getCheckout(endpoint, given.checkoutId, signal);
  const { order } = given;
  if (order !== undefined && order !== null && order !== '' && order !== String({})) {
    return createCheckout(endpoint, order, signal);
  }
  // Perhaps still to come (a framework hydrating the page sets it, over an object its server
  // render could only write as text, String({}), which nothing can price): said only later. The
  // errors' messages are for the merchant's logs, in English; the shopper reads the pay
  // part's words in the locale (report.ts), which the form's first paint does not carry.
  await settled(signal);
  throw new BackendError('MISSING_CHECKOUT', 'no checkout-id and no order', 0, false);
}

/**
 * The methods to offer, in the widget's order: accepted by the handler, named by the element
 * (all when it names none), and a bank method only where the checkout has a redirect_url (a
 * bank's page returns there). None is an error.
 */
export function methodsToOffer(
  offered: readonly string[],
  named: readonly string[],
  checkout: CheckoutView,
): PaymentMethodId[] {
  const methods = METHOD_IDS.filter(
    (m) =>
      offered.includes(m) &&
      (named.length === 0 || named.includes(m)) &&
      (checkout.redirect_url || !(METHODS[m] as MethodForm).redirect),
  );
  if (methods.length === 0) {
    throw new BackendError('NO_PAYMENT_METHODS', 'no payment method offered', 0, false);
  }
  return methods;
}
