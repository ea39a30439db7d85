// The customer's saved cards, to pay with one: shown only to a page that names a customer
// who has some, so drawn by the pay part (src/widget/parts/pay.ts), which such a page asks
// for with the checkout.

import type { TypingForm } from '../form/context.ts';
import { chooseSaved } from '../form/typing.ts';
import type { Strings } from '../locales/en.ts';
import { css, format, html, nothing } from '../parts/kit.ts';
import type { SavedCard } from '../state.ts';

export const savedCardStyles = css`
  fieldset > .choice + .choice {
    margin-top: 0.5em;
  }
`;

/**
 * The saved card radio group, ending in "Use a new card" (token ''), whose choice is `form`'s;
 * nothing without saved cards.
 */
export function savedCardChoice(
  cards: readonly SavedCard[],
  chosen: string,
  s: Strings,
  form: TypingForm,
) {
  if (cards.length === 0) return nothing;
  const option = (token: string, label: string) =>
    html`<label class="choice"
      ><input
        type="radio"
        name="saved"
        .value=${token}
        .checked=${chosen === token}
        @change=${() => chooseSaved(form, token)}
      />${label}</label
    >`;
  return html`<fieldset part="saved-cards">
    <legend>${s.savedCards}</legend>
    ${cards.map((c) => option(c.token, format(s.savedCard, { network: c.network, last4: c.last4 })))}
    ${option('', s.newCard)}
  </fieldset>`;
}
