// Where focus goes after a render that hid or disabled the control that had it (Pay while
// paying, the form once an outcome shows, the old form after "Try another card"): on to
// what is on screen now, so a keyboard shopper is not sent back to the top of the page.
// Browsers move such focus to the page only at their next frame, if at all, so the control
// itself is looked at. The pay part's (src/widget/parts/pay.ts): only paying and what
// follows it hide a control that has focus.

import type { Lifecycle } from '../state.ts';

/** After the next frame is drawn; at once in a hidden page, which draws none. */
export const nextFrame = (): Promise<void> =>
  new Promise((resolve) => {
    if (document.hidden) resolve();
    else requestAnimationFrame(() => setTimeout(resolve));
  });

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
  host.focus();
  return false;
}
