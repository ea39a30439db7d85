// The calls that only paying makes: the process request, and the basket's next checkout
// after a failure. The pay part's (src/widget/parts/pay.ts): the form paints without them.

import type { CheckoutView } from '../../next-step/types.ts';
import { call, checkoutAt, checkoutPath, TIMEOUT_MS } from '../parts/kit.ts';
import type { BackendAnswer } from './backend.ts';

/** After a failure: the basket's next checkout (or its paid one), made by the handler. */
export function retryCheckout(endpoint: string, id: string): Promise<CheckoutView> {
  return checkoutAt(endpoint, `${checkoutPath(id)}/retry`, { method: 'POST' });
}

/** PUT the process body; the caller tells a 200 (checkout) from a 202 (next step). */
export function processCheckout(
  endpoint: string,
  id: string,
  body: unknown,
): Promise<BackendAnswer> {
  return call(endpoint, checkoutPath(id), {
    method: 'PUT',
    body,
    timeoutMs: TIMEOUT_MS.process,
  });
}
