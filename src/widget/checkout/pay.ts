// What happens from Pay to the answer: validate, send the process request, recover from a
// 409 or an answer that was lost, run the next step, and hand the confirmed checkout to
// the controller to show. The pay part (src/widget/parts/pay.ts): it loads beside the
// checkout, outside the form's first paint, so it reaches the code that painted the form
// only through the controller's public members and the kit.

import { actionFor } from '../../next-step/action.ts';
import type { FieldName } from '../form/fields.ts';
import { controlOf, valuesOf } from '../form/inputs.ts';
import { check } from '../form/typing.ts';
import { PAYING, processBody } from '../methods/pay.ts';
import { BackendError, emit, getCheckout, isFinalStatus, TIMEOUT_MS } from '../parts/kit.ts';
import type { Lifecycle, Payable } from '../state.ts';
import type { PayContext } from './context.ts';
import { fail, settle } from './outcome.ts';
import { processCheckout, retryCheckout } from './process.ts';
import { readBack } from './read-back.ts';
import { refuseInvalid, report } from './report.ts';
import { savesCard } from './saving.ts';
import { challengeMode } from './settings.ts';
import { reopened, runStep } from './steps.ts';
import { stepOf } from './words.ts';

/**
 * Validates, then pays; the controller's submit() keeps a second press from paying twice.
 * Runs synchronously up to sending, so that a payment in flight shows at once.
 *
 * A new order while the payment is out loads nothing (../payment-widget.ts willUpdate): the
 * payment's answer is the shopper's outcome. An answer that leaves this checkout's form (an
 * error, an answer lost) loads the order as it is now, so the shopper never pays the amount
 * it had. A framework's new but equal order is no new order.
 */
export function pay(c: PayContext): Promise<void> {
  const { checkout } = c.lifecycle as Partial<Payable>;
  const order = JSON.stringify(c.host.order);
  const paid = payOnce(c);
  // Beside the promise returned, not after it: a Pay pressed as the answer shows pays again
  // at once (submit() lets it once that promise settles). A failure is the caller's to hear:
  // this side ignores it (no reload), and so is no second unhandled rejection.
  paid.then(
    () => {
      const now = c.lifecycle;
      // Still this checkout's form: nothing loaded meanwhile (a new order while a 3DS challenge
      // shows loads at once, and ends the challenge and this payment).
      if (
        now.kind === 'form' &&
        now.checkout === checkout &&
        JSON.stringify(c.host.order) !== order
      )
        void c.load();
    },
    () => {},
  );
  return paid;
}

/** Pays the checkout on the form: from the check of the fields to the answer shown. */
async function payOnce(c: PayContext): Promise<void> {
  const { host, form } = c;
  const payable = c.lifecycle;
  // Off the page (a route changed, a modal closed, before the pay part came): nobody pays.
  if (payable.kind !== 'form' || !payable.checkout.id || !host.isConnected) return;
  const { checkout } = payable;
  /**
   * Whether what came back is still this payment's to show: not once the page named another
   * checkout (it loads meanwhile, and the old one's answer is not its), nor off the page,
   * where nobody is looking and a new widget may show the checkout: it shows and tells
   * nothing, asks nothing more, and put back it loads, showing what the backend reads.
   */
  const mine = (): boolean => {
    if ((c.lifecycle as Partial<Payable>).checkout !== checkout) return false;
    if (!host.isConnected) putBack(c);
    return host.isConnected;
  };
  const id = payable.checkout.id;
  // Checked synchronously: submit() relies on pay() reaching 'busy' before it awaits.
  const invalid = check(form);
  if (invalid.length > 0) return refuseInvalid(c, invalid);
  // Paid from inside the widget: a step that opens takes focus (./steps.ts).
  const focused = Boolean(host.shadowRoot?.activeElement);

  const { method, network, savedToken } = form.view;
  // A saved card is paid with its token; "save this card" ticked (the box is there only where
  // the page offers it) asks for a mandate, and so does every new card of a checkout made to
  // save it.
  const saved =
    host.customerId && method === 'card'
      ? form.savedCards.find((card) => card.token === savedToken)
      : undefined;
  const ticked = host.renderRoot.querySelector<HTMLInputElement>('#save')?.checked;
  const body = processBody(
    method,
    {
      values: valuesOf(form),
      saved: saved ? { token: saved.token, customerId: host.customerId ?? '' } : undefined,
      saveCard: savesCard(checkout) || Boolean(ticked),
    },
    host,
  );
  form.setStatus('');
  c.to({ ...payable, kind: 'busy' });
  // A new attempt: no step yet (a challenge cancelled before is not this one's).
  stepOf(id, '');
  // Offline as it is sent, a request that gets no answer never left the browser.
  const offline = !navigator.onLine;
  const sent = processCheckout(c.endpoint, id, body);
  // The card's last digits and network, never its number.
  const card = saved ?? { last4: body.card?.last_4_digits, network };
  const cardDetail = { last4: card.last4, network: card.network };
  emit(host, 'payment-submit', {
    paymentMethod: method,
    ...(method === 'card' ? cardDetail : {}),
  });

  try {
    const result = await sent;
    if (!mine()) return;
    // Not over yet (a 3DS challenge, a bank, a boleto's voucher): what next.
    const action = actionFor(result.status, result.body, {
      mode: challengeMode(c.host.challenge),
      hasRedirectUrl: Boolean(checkout.redirect_url),
      expects: PAYING[method].step,
    });
    if (action) return await runStep(c, action, payable, focused);
    if (result.status === 202) {
      throw new BackendError('INVALID_NEXT_STEP', 'a 202 without a next step', 202, false);
    }
    // A 200 is not the proof: the backend confirms by reading the checkout again.
    const paid = await getCheckout(c.endpoint, id);
    if (mine()) await settle(c, paid);
  } catch (error) {
    if (!mine()) return;
    const e = error instanceof BackendError ? error : undefined;
    // 409: the checkout can no longer be processed (paid, expired or failed meanwhile,
    // perhaps in another tab): its status is the answer. No answer, or a fault on the way
    // back: the provider may have charged the card all the same, so the checkout is read back
    // before anything is said. (Sent while offline, nothing reached the backend: there is
    // nothing to read back, and the shopper is told at once rather than after the tries.)
    const now =
      e?.status === 409
        ? await getCheckout(c.endpoint, id).catch(() => undefined)
        : e && (e.status === 0 ? !offline : e.status >= 500)
          ? await readBack((ms) =>
              mine() ? getCheckout(c.endpoint, id, null, Math.min(ms, TIMEOUT_MS.read)) : undefined,
            )
          : undefined;
    if (!mine()) return;
    if (now) {
      // A paid checkout is never reported as anything else.
      if (isFinalStatus(now.status)) return settle(c, now);
      // The answer opened a step (a voucher issued, a challenge, a bank's page): it shows
      // from the checkout read back, as when the page is seen again (./recheck.ts), never the
      // form or "no longer valid", and nothing loads again. This Pay opened it: it takes
      // focus as after the answer itself, and a voucher it issued is not resumed.
      const step = reopened(c, payable, now, focused, false);
      if (step) return step;
      // Still open, yet refused (past valid_until, say): trying again cannot help, so the
      // form goes and the shopper is sent back to the shop.
      if (e?.status === 409) return fail(c, error, false, 'noLongerValid');
    }
    // The provider may have taken the payment: never Pay again for this checkout. It stays
    // pending, read back until its outcome is known.
    if (e?.code === 'PROCESS_OUTCOME_UNKNOWN') {
      report(c, error);
      return settle(c, now ?? payable.checkout);
    }
    // Pending, or unreadable: paying again is safe (the provider refuses a second charge of
    // one checkout, and the 409 above reads it).
    c.to({ ...payable, kind: 'form' });
    report(c, error);
  }
}

/**
 * A payment whose answer came while its element was off the page: put back, the element
 * loads. Its controller does so for one that left (./controller.ts); this, for one
 * put back before the task that took it off was over, as a framework moving it does.
 */
function putBack(c: PayContext): void {
  const off: Lifecycle = { kind: 'loading' };
  c.to(off);
  const back = {
    hostConnected() {
      c.host.removeController(back);
      if (c.lifecycle === off) void c.load();
    },
  };
  c.host.addController(back);
}

/** "Try another card" (or way to pay): the basket's next checkout, made by the handler. */
export async function retry(c: PayContext): Promise<void> {
  const now = c.lifecycle;
  if (now.kind !== 'done' || now.retrying || !now.checkout.id) return;
  // The outcome stays, its button busy, until the next checkout's form replaces it (no
  // placeholder between them); a second press cannot ask for a second checkout.
  c.to({ ...now, retrying: true });
  // After a bank's page or a boleto the shopper asked for another way to pay, not a card.
  c.cardOnly = now.offer === 'tryAnotherCard';
  // Another card, or way to pay, chosen: the next form (the same element, no placeholder
  // between) takes the room its fields need, not the first form's (its methods' rows).
  c.form.choose();
  // A page that names its order asks for that order's checkout again, which the handler makes
  // anew after a failure: the basket as it is now, and a later order still loads its own.
  if (!c.host.checkoutId) return c.load();
  try {
    const next = (await retryCheckout(c.endpoint, now.checkout.id)).id;
    // Off the page meanwhile: nobody waits for the next form, nor is the address the page's
    // now. Put back, the outcome shows with its button, which the handler answers alike.
    if (!c.host.isConnected) return c.to(now);
    // A result page names its checkout in its address (`?checkout_id=`, from the handler's
    // return): it names the next one from now on, so a reload shows the basket's outcome,
    // not this failure. The history entry's state stays (a router's own keys).
    const url = new URL(location.href);
    if (next && url.searchParams.get('checkout_id') === now.checkout.id) {
      url.searchParams.set('checkout_id', next);
      history.replaceState(history.state, '', url);
    }
    c.host.checkoutId = next;
  } catch (error) {
    c.to(now);
    if (c.host.isConnected) report(c, error);
  }
}

/**
 * After a failure, what the shopper typed besides the card (name, email, address) goes
 * back into the basket's next form, as typed.
 */
export function restore(c: PayContext): void {
  for (const [field, value] of Object.entries(c.kept)) {
    const input = controlOf(c.form, field as FieldName);
    if (input) input.value = value;
  }
  c.kept = {};
}
