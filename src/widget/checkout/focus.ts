// Where focus goes when what had it goes away (Pay while paying, the form once an outcome
// shows, the old form after "Try another card"): on to what is on screen now, so a keyboard
// shopper is not sent back to the top of the page and a screen-reader user hears what
// happened. Browsers move such focus to the page only at their next frame, if at all, so
// the control itself is looked at. The pay part's (src/widget/parts/pay.ts): only paying
// and what follows it hide a control that has focus.

import type { Lifecycle } from '../state.ts';

/** After the next frame is drawn; at once in a hidden page, which draws none. */
export const nextFrame = (): Promise<void> =>
  new Promise((resolve) => {
    if (document.hidden) resolve();
    else requestAnimationFrame(() => setTimeout(resolve));
  });

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
 * from there; else the first thing to fill in or press.
 */
function focusNext(host: HTMLElement): void {
  const root = host.shadowRoot;
  const outcome = root?.querySelector<HTMLElement>('[part~=outcome-region] [tabindex]');
  if (outcome && !root?.querySelector('[part~=retry]')) {
    quiet(host);
    outcome.focus();
  } else host.focus();
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
