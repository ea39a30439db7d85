// The page is seen again (back from the bank's app, another tab, the back-forward cache), or
// the browser is back online: while the form or a step shows, or a voucher waits, the
// checkout may have changed elsewhere (paid in the bank's app or another tab, deactivated
// because the basket changed), or been paid by a Pay whose answer and read-back the network
// lost ("We could not reach the payment service" shows, with Pay), or been left at a step by
// one (a challenge, a voucher issued: that answer lost, or the step part it called for not
// loaded, offline). The pay part's
// (src/widget/parts/pay.ts): only a form that can be paid, or a payment on its way, has
// anything to read back.

import type { CheckoutView } from '../../next-step/types.ts';
import { getCheckout, isFinalStatus } from '../parts/kit.ts';
import type { Payable } from '../state.ts';
import type { PayContext } from './context.ts';
import { settle } from './outcome.ts';

/** Shows the step `checkout` has open instead of the form `payable` (./steps.ts resume). */
type Reopen = (c: PayContext, payable: Payable, checkout: CheckoutView) => Promise<void>;

/**
 * On `visibilitychange`, `pageshow` or `online`: reads the checkout back, shows what is final,
 * and instead of the form a step it has open.
 */
function recheck(c: PayContext, event: Event, reopen: Reopen): void {
  const now = c.lifecycle;
  if (document.hidden || (event.type === 'pageshow' && !(event as PageTransitionEvent).persisted))
    return;
  if (!('checkout' in now) || !now.checkout.id || now.kind === 'done' || now.kind === 'busy')
    return;
  // Back by the back-forward cache from the page a step went to (a bank's, a full-page
  // challenge): loaded again, the step shows again, or the form, or the outcome.
  if (event.type === 'pageshow' && now.kind === 'step') return void c.load();
  getCheckout(c.endpoint, now.checkout.id).then((checkout) => {
    // Unless something else moved the widget meanwhile.
    if (c.lifecycle !== now) return;
    if (isFinalStatus(checkout.status)) void settle(c, checkout, true);
    // A Pay whose answer (or the step part it called for) the network lost opened a step: it
    // shows, as after a reload (a form only: reopen leaves any other state as it is).
    else void reopen(c, now as Payable, checkout);
  }, String);
}

const watched = new WeakSet<PayContext>();

/**
 * From now on, while its element is on the page, `c`'s checkout is read back whenever the page
 * is seen again (once per element: the form shown again after "Try another card" asks again).
 */
export function watchVisibility(c: PayContext, reopen: Reopen): void {
  if (watched.has(c)) return;
  watched.add(c);
  const seen = (event: Event) => recheck(c, event, reopen);
  c.host.addController({
    hostConnected() {
      document.addEventListener('visibilitychange', seen);
      addEventListener('pageshow', seen);
      addEventListener('online', seen);
    },
    hostDisconnected() {
      document.removeEventListener('visibilitychange', seen);
      removeEventListener('pageshow', seen);
      removeEventListener('online', seen);
    },
  });
}
