import { html, type TemplateResult } from 'lit';
import type { Strings } from '../locales/en.ts';

/** The "save this card for future payments" checkbox. */
export function saveCardOption(s: Strings): TemplateResult {
  return html`<label class="choice" part="save-card"
    ><input type="checkbox" id="save" />${s.saveCard}</label
  >`;
}
