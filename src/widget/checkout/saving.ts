// A checkout made to save the card (the merchant's resolveCheckout returned purpose
// SETUP_RECURRING_PAYMENT): the provider pays it only with the card saved, so the form does
// not ask (a box left unticked could only fail); it says the card will be saved, and a new
// card is sent with a mandate whatever the page's `save-card`. The pay part's
// (src/widget/parts/pay.ts): until it comes, the form draws what the page's `save-card` asks
// for. Such a checkout is paid by card alone: the handler offers nothing else for it
// (GET /payment-methods with its purpose, ./backend.ts).

import type { TemplateResult } from 'lit';
import type { CheckoutView } from '../../next-step/types.ts';
import { html } from '../parts/kit.ts';
import type { Payable } from '../state.ts';
import type { PayContext } from './context.ts';

/** Whether the checkout was made to save the card. */
export const savesCard = (checkout: CheckoutView | undefined): boolean =>
  checkout?.purpose === 'SETUP_RECURRING_PAYMENT';

/**
 * Under a new card's fields of a checkout made to save it: that it will be saved, in place of
 * the "save this card" box; nothing (undefined) for any other checkout.
 */
export function cardSaved(c: PayContext): TemplateResult | undefined {
  const { checkout } = c.lifecycle as Partial<Payable>;
  return savesCard(checkout) ? html`<p part="save-card">${c.strings.cardSaved}</p>` : undefined;
}
