// Where focus goes when what had it goes away (Pay while paying, the form once an outcome
// shows, the old form after "Try another card", the form under a 3-D Secure challenge, the
// challenge once it closes): on to what is on screen now, so a keyboard shopper is not sent
// back to the top of the page and a screen-reader user hears what happened. Browsers move
// such focus to the page only at their next frame, if at all, so the control itself is
// looked at. The pay part's (src/widget/parts/pay.ts): only paying and what follows it hide
// a control that has focus.

import { nextFrame } from '../parts/kit.ts';
import type { Lifecycle } from '../state.ts';

/** Focus is on nothing: the page itself, or the element with nothing inside it. */
export const adrift = (host: HTMLElement): boolean => {
  const page = document.activeElement;
  return !page || page === document.body || (page === host && !host.shadowRoot?.activeElement);
};

/**
 * The outcome's region says nothing of its next change, which focus reads instead: quiet
 * (aria-live="off" outranks its role's own politeness) until the frame after, so that a
 * later change (pending, then paid) is said again.
 */
export function quiet(host: HTMLElement): void {
  const region = host.shadowRoot?.querySelector('[part~=outcome-region]');
  region?.setAttribute('aria-live', 'off');
  void nextFrame().then(() => region?.removeAttribute('aria-live'));
}

/**
 * Focuses what the shopper lands on: an outcome's button ("Try another card"); else the
 * outcome itself when it has nothing to press (paid, pending), so that it is read once,
 * from there; else the control `to` selects when it is on screen (back from a step: Pay,
 * which opened it, or the card number to type another card), or the first thing to fill in
 * or press.
 */
function focusNext(host: HTMLElement, to?: string): void {
  const root = host.shadowRoot;
  const outcome = root?.querySelector<HTMLElement>('[part~=outcome-region] [tabindex]');
  const next = to ? root?.querySelector<HTMLElement>(to) : undefined;
  if (outcome && !root?.querySelector('[part~=retry]')) {
    quiet(host);
    outcome.focus();
  } else if (next?.getClientRects().length) next.focus();
  else host.focus();
}

/**
 * After a render of `host` that began with focus inside it: hands focus on when the
 * control that had it is gone. Whether to look again after the next render (paying or
 * loading: what to hand focus to comes with the answer).
 */
export function handOnFocus(host: HTMLElement, kind: Lifecycle['kind']): boolean {
  const page = document.activeElement;
  // Moved elsewhere on the page by the shopper: it stays there.
  if (page !== host && page !== document.body) return false;
  const held = host.shadowRoot?.activeElement as HTMLElement | null;
  if (held && held.getClientRects().length > 0 && !held.matches(':disabled')) return false;
  if (kind === 'busy' || kind === 'loading') return true;
  focusNext(host);
  return false;
}

/**
 * A step just put in `container`, opened from inside the widget: focus moves to its named
 * part (a challenge's box, a group named as its frame), so that a screen reader says what
 * opened and Tab goes on into it. The form under it is hidden: left where it was, focus
 * would be on nothing, and the challenge would open unheard. Not the frame itself: Firefox
 * tells the page nothing of focus that goes into a frame still loading.
 */
export function focusStep(container: HTMLElement): void {
  container.querySelector<HTMLElement>('[tabindex]')?.focus();
}

/**
 * A step that had focus has closed, its view and focus with it (`lost`): focus goes to what
 * replaced it once drawn, the outcome, or when the form is back to `to`: Pay (the control
 * that opened the step), or the card number after "Try another card" (./steps.ts).
 */
export async function focusAfterStep(
  host: HTMLElement & { updateComplete: Promise<unknown> },
  to: string,
) {
  await host.updateComplete;
  if (adrift(host)) focusNext(host, to);
}
