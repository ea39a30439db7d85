// The customer's saved cards: shown only to a page that names a customer who has some, so
// loaded with that customer's cards, not with the form.
import type { SavedCard } from '../checkout/backend.ts';
import type { Strings } from '../locales/en.ts';
import { format, html, nothing } from './kit.ts';

/** The saved card radio group, ending in "Use a new card" (token ''); nothing without saved cards. */
export function savedCardChoice(
  cards: readonly SavedCard[],
  chosen: string,
  s: Strings,
  choose: (token: string) => void,
) {
  if (cards.length === 0) return nothing;
  const option = (token: string, label: string) =>
    html`<label class="choice"
      ><input
        type="radio"
        name="saved"
        .value=${token}
        .checked=${chosen === token}
        @change=${() => choose(token)}
      />${label}</label
    >`;
  return html`<fieldset part="saved-cards">
    <legend>${s.savedCards}</legend>
    ${cards.map((c) => option(c.token, format(s.savedCard, { network: c.network, last4: c.last4 })))}
    ${option('', s.newCard)}
  </fieldset>`;
}
