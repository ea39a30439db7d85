import { html, nothing, type TemplateResult } from 'lit';
import type { SavedCard } from '../checkout/backend.ts';
import type { Strings } from '../locales/en.ts';
import { format } from '../locales/load.ts';

/** The saved card radio group, ending in "Use a new card" (token ''); nothing without saved cards. */
export function savedCardChoice(
  cards: readonly SavedCard[],
  chosen: string,
  s: Strings,
  choose: (token: string) => void,
): TemplateResult | typeof nothing {
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

/** The "save this card for future payments" checkbox. */
export function saveCardOption(s: Strings): TemplateResult {
  return html`<label class="choice" part="save-card"
    ><input type="checkbox" id="save" />${s.saveCard}</label
  >`;
}
