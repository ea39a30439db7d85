// A next step on screen: the runner (src/next-step, the step part's: loaded here, when an
// answer or a checkout left open calls for one) run in the element's next-step area, this
// tab's memory of it (words.ts `stepOf`), what its outcome does to the widget, and the step
// a checkout left open when the widget loads again (resume.ts). The pay part's
// (src/widget/parts/pay.ts): only a payment opens a step, and a step left open shows again
// once the part is in, after the form's first paint.

import type { Action, CheckoutView, NextStepContext, Outcome } from '../../next-step/types.ts';
import {
  BackendError,
  emit,
  format,
  formatMoney,
  getCheckout,
  isFinalStatus,
} from '../parts/kit.ts';
import type { Lifecycle, Payable } from '../state.ts';
import type { PayContext } from './context.ts';
import { adrift, focusAfterStep, focusStep, quiet } from './focus.ts';
import { keep, settle } from './outcome.ts';
import { watchVisibility } from './recheck.ts';
import { report } from './report.ts';
import { reopen } from './resume.ts';
import { savesCard } from './saving.ts';
import { challengeMode, diagnoseSettings } from './settings.ts';
import { outcomeOf, stepOf } from './words.ts';

/**
 * Once the form of a pending checkout shows: what of the page's settings the widget ignores
 * is told (./settings.ts), the page seen again from now on reads the checkout back
 * (./recheck.ts), and the step the checkout left open shows again (resume).
 */
export async function shown(c: PayContext, payable: Payable): Promise<void> {
  // A checkout made to save the card offers a card alone, whatever the page names: no mistake.
  const { checkout } = payable;
  diagnoseSettings(c, savesCard(checkout) ? undefined : payable.methods, !!checkout.redirect_url);
  // "Try another card" is answered: the next load offers what the page names again.
  c.cardOnly = false;
  watchVisibility(c, resume);
  await resume(c, payable);
}

/**
 * After the form of a pending checkout shows: the step the checkout left open (a reload
 * mid-challenge, back from the bank's page), shown again instead of the form, if any; also
 * the step `checkout`, read again as the page is seen again or back online, has open.
 */
export async function resume(
  c: PayContext,
  payable: Payable,
  checkout = payable.checkout,
): Promise<void> {
  const now = c.lifecycle;
  // Unless something else moved the widget meanwhile (Pay, the page seen again).
  if (now.kind !== 'form' || now.checkout !== payable.checkout) return;
  await reopened(c, payable, checkout);
}

/**
 * Shows the step `checkout` (the checkout of `payable`, as the backend reads it now) has open
 * instead of the form, and what it ends in (runStep, which holds the form busy meanwhile);
 * undefined when it has none to show (./resume.ts reopen). Its caller knows the form is
 * `payable`'s: resume over a form that shows, Pay over its own busy one (its answer lost).
 * `focused` and `resumed` as for runStep; `resumed` concerns a voucher only (issued before
 * this page showed it), not a step the shopper goes through now.
 */
export function reopened(
  c: PayContext,
  payable: Payable,
  checkout: CheckoutView,
  focused = false,
  resumed = true,
): Promise<void> | undefined {
  const action = reopen(checkout, challengeMode(c.host.challenge), stepOf(String(checkout.id)));
  return action && runStep(c, action, payable, focused, resumed && action.kind === 'voucher');
}

/**
 * Shows `action` for the checkout in `payable` instead of its form, and what it ends in.
 * `focused`: opened from inside the widget (Pay, Enter in a field), so focus follows it in
 * and back out (./focus.ts); a step shown again as the page loads takes no focus. `resumed`:
 * what it ends in was so before this page showed it (../events.ts).
 */
export async function runStep(
  c: PayContext,
  action: Action,
  payable: Payable,
  focused = false,
  resumed = false,
): Promise<void> {
  const host = c.host;
  const id = payable.checkout.id as string;
  // The step part first, the form busy meanwhile (no second payment can start).
  const busy: Lifecycle = { ...payable, kind: 'busy' };
  c.to(busy);
  const step = host.isConnected ? await c.parts.need('step') : undefined;
  // Something else moved the widget meanwhile (another checkout loads): that stands.
  if (c.lifecycle !== busy) return;
  // Removed from the page while the process request (or the part) was out: nobody is
  // looking, so no challenge shows and the page is not navigated away from under what the
  // shop shows now; attached again, the form is still payable. And a step part that could
  // not load leaves the form payable too: the widget says it cannot reach the payment
  // service, with "Try again", and the page hears of it (the parts controller's need());
  // back online, the step shows (./recheck.ts).
  if (!step || !host.isConnected) return c.to({ ...payable, kind: 'form' });
  c.stepAbort?.abort();
  const controller = new AbortController();
  c.stepAbort = controller;
  c.to({ ...payable, kind: 'step' });
  const moved = frameMoved(c, payable, controller);
  host.addController(moved);
  const { amount, currency } = payable.checkout;
  const money = formatMoney(c.locale.tag, amount, currency);
  // Shown again as the page loaded, a step the shopper tabs into (a bank's offer and its
  // buttons, a challenge's frame, where the window blurs as focus enters it: Firefox says
  // where only after) has focus all the same, which comes back out with it.
  const into = () =>
    setTimeout(() => {
      focused ||= Boolean(host.shadowRoot?.activeElement?.closest('.next-step'));
    });
  addEventListener('blur', into);
  host.renderRoot.addEventListener('focusin', into);
  const outcome = await showStep(
    c,
    step.runAction,
    action,
    id,
    {
      confirm: async (signal) => {
        const read = await getCheckout(c.endpoint, id, signal);
        // Awaited because the handler could not give the step back (its store away, say):
        // once it can, the step shows in the wait's place (the bank answers only once the
        // shopper has been through it), and this one ends with it.
        const again =
          action.kind === 'waiting' && reopen(read, challengeMode(host.challenge), stepOf(id));
        if (again && again.kind !== 'waiting') void runStep(c, again, payable, focused);
        return read;
      },
      isFinal: isFinalStatus,
      // A challenge shown in the iframe on a checkout with a redirect_url ends at the
      // handler's return page: its origin is trusted like the provider's.
      ...(payable.checkout.redirect_url
        ? { returnOrigin: new URL(c.endpoint, location.href).origin }
        : {}),
      onChallenge: (detail) => emit(host, 'payment-challenge', detail),
      t: (key) => format(c.strings[key], { amount: money }),
      signal: controller.signal,
      ...(host.navigate ? { navigate: host.navigate } : {}),
    },
    focused,
  );
  removeEventListener('blur', into);
  host.renderRoot.removeEventListener('focusin', into);
  host.removeController(moved);
  if (!outcome) return;
  // Focus was in the step, and went with it: it comes back once what follows is drawn.
  const lost = focused && adrift(host);
  // Where focus goes then, when the form is back: Pay, the control that opened the step.
  let to = '[type=submit]';
  if (outcome.kind === 'final' || outcome.kind === 'pending') {
    // An outcome with nothing to press takes that focus, and is read from there: its region
    // is quiet before it changes, as when Pay hands focus on (./focus.ts).
    if (lost && (outcome.kind === 'pending' || !outcomeOf(outcome.checkout).offer)) quiet(host);
    await settle(c, outcome.checkout, resumed);
  }
  // The page goes to a full-page step: the card typed for it goes first, never kept in a
  // page the back-forward cache holds (the step, which the checkout holds, needs none of it).
  else if (outcome.kind === 'navigating') keep(c);
  else {
    // Cancelled, or refused: the form again, still payable.
    controller.abort();
    c.to({ ...payable, kind: 'form' });
    if (outcome.kind === 'refused') {
      report(c, new BackendError(outcome.code, outcome.message, 0, false));
    }
    // "Try another card", under a full-page challenge offered again or a challenge's answer
    // awaited (a bank's page offers another way to pay): the card goes, and what the form
    // said of it, as after a decline (a page the back-forward cache brings back still
    // holds what was typed: ./recheck.ts), what else the shopper typed stays, and focus
    // goes to the card number.
    else if (
      action.kind === 'waiting'
        ? !action.bank
        : action.kind === 'offer' && action.step.kind === 'challenge-redirect'
    ) {
      to = '#number';
      keep(c);
    }
  }
  if (lost) await focusAfterStep(host, to);
}

/**
 * A frame's page does not move with it: the browser drops it as the element leaves the
 * document, even when a framework puts the element back within the task (a move, which
 * leaves all else as it was). Moved, a challenge in the frame (`step`'s) shows again from the
 * checkout read back, as when the page is seen again (./recheck.ts), and the page hears
 * payment-challenge again. An element that left the page loads afresh when put back
 * (./controller.ts), which stops the step first.
 */
function frameMoved(c: PayContext, payable: Payable, step: AbortController) {
  return {
    hostConnected() {
      if (step.signal.aborted || !c.host.renderRoot.querySelector('.next-step iframe')) return;
      step.abort();
      c.to({ ...payable, kind: 'form' });
      getCheckout(c.endpoint, payable.checkout.id as string).then(
        (now) => (isFinalStatus(now.status) ? settle(c, now, true) : resume(c, payable, now)),
        String,
      );
    },
  };
}

/**
 * Shows `action` for checkout `id` in the element's next-step area (the lifecycle already
 * says `step`), with `context` there, and resolves with its outcome, or with undefined once
 * `context.signal` stopped it.
 */
async function showStep(
  c: PayContext,
  runAction: (action: Action, context: NextStepContext) => Promise<Outcome>,
  action: Action,
  id: string,
  context: Omit<NextStepContext, 'container'>,
  focused: boolean,
): Promise<Outcome | undefined> {
  const { signal } = context;
  // This tab's memory of the step: an offered one by the page it leads to.
  if (action.kind !== 'waiting')
    stepOf(id, action.kind === 'offer' ? action.step.kind : action.kind);
  await c.host.updateComplete;
  const container = c.host.renderRoot.querySelector<HTMLElement>('.next-step');
  if (!container || signal.aborted) return undefined;
  try {
    // The runner puts its view on the page at once, before its first await.
    const running = runAction(action, { ...context, container });
    if (focused) focusStep(container);
    const outcome = await running;
    // Cancelled, or refused: this step is not shown again in this tab.
    if (outcome.kind === 'cancelled' || outcome.kind === 'refused')
      stepOf(id, `${stepOf(id)}:left`);
    return signal.aborted ? undefined : outcome;
  } catch (error) {
    if (signal.aborted) return undefined;
    throw error;
  }
}

/** Leaves a next step on screen (a challenge) for the form, still payable. */
export function leaveStep(c: PayContext): void {
  const now = c.lifecycle;
  if (now.kind !== 'step') return;
  c.stepAbort?.abort();
  c.to({ ...now, kind: 'form' });
}
