import { html, nothing, type SVGTemplateResult, svg, type TemplateResult } from 'lit';
import type { FieldName } from '../form/fields.ts';
import type { StringName, Strings } from '../locales/en.ts';

/** What the field templates read (the form controller): the words, and each field's state. */
interface FieldsView {
  strings(): Strings;
  /** The mark of the card's network as typed so far; none while it is unknown. */
  readonly mark: SVGTemplateResult | undefined;
  readonly host: { readonly maxInstallments: number };
  /** Whether the field's error is on screen. */
  errorShown(field: FieldName): boolean;
  /** The field's error text. */
  message(field: FieldName): string;
}

/** Fields whose label key is not the field's own name. */
const LABELS: Partial<Record<FieldName, StringName>> = {
  number: 'cardNumber',
  name: 'cardName',
  line1: 'addressLine',
};

/** Browser autofill tokens; a field missing here gets `off`. */
const AUTOCOMPLETE: Partial<Record<FieldName, string>> = {
  number: 'cc-number',
  expiry: 'cc-exp',
  cvv: 'cc-csc',
  name: 'cc-name',
  zip: 'postal-code',
  email: 'email',
  firstName: 'given-name',
  lastName: 'family-name',
  line1: 'address-line1',
  city: 'address-level2',
  state: 'address-level1',
  postalCode: 'postal-code',
};

/** The number field's icon until the network is known: a plain card. */
const CARD_OUTLINE = svg`<rect x="0.5" y="0.5" width="23" height="15" rx="2" fill="none" stroke="currentColor" /><rect x="1" y="4" width="22" height="2.5" fill="currentColor" />`;

/** Fields typed as digits: a numeric keypad on phones (the email field's type brings its own). */
const NUMERIC = /^(number|expiry|cvv|zip|taxId|postalCode)$/;

/** Fields laid out two to a row when the widget is wide enough. */
const PAIRS: Partial<Record<FieldName, FieldName>> = {
  expiry: 'cvv',
  firstName: 'lastName',
  city: 'state',
};

/** The fields in screen order, a pair sharing a row where one is defined. */
export function fieldRows(fields: readonly FieldName[], view: FieldsView): TemplateResult[] {
  const rows: TemplateResult[] = [];
  for (let i = 0; i < fields.length; i++) {
    const field = fields[i] as FieldName;
    const pair = PAIRS[field];
    if (pair && fields[i + 1] === pair) {
      rows.push(html`<div class="row">${fieldOf(field, view)}${fieldOf(pair, view)}</div>`);
      i++;
    } else rows.push(fieldOf(field, view));
  }
  return rows;
}

/**
 * One field: its visible label, the input (or the installments select), the
 * card's network icon, a hint, and the error text the input is described by
 * once it shows.
 */
function fieldOf(field: FieldName, view: FieldsView): TemplateResult {
  const s = view.strings();
  const shown = view.errorShown(field);
  const errorId = `${field}-error`;
  const hintId = field === 'expiry' ? 'expiry-hint' : '';
  const describedBy = `${hintId} ${shown ? errorId : ''}`.trim();
  const control =
    field === 'installments'
      ? html`<select
          id=${field}
          name=${field}
          data-field=${field}
          part="input"
          aria-invalid=${shown ? 'true' : nothing}
          aria-describedby=${describedBy || nothing}
        >
          ${Array.from(
            { length: Math.min(12, Math.max(1, view.host.maxInstallments || 12)) },
            (_, i) => html`<option value=${i + 1}>${i + 1}</option>`,
          )}
        </select>`
      : html`<input
          id=${field}
          name=${field}
          data-field=${field}
          part="input"
          type=${field === 'email' ? 'email' : 'text'}
          autocomplete=${AUTOCOMPLETE[field] ?? 'off'}
          inputmode=${NUMERIC.test(field) ? 'numeric' : nothing}
          dir=${NUMERIC.test(field) ? 'ltr' : nothing}
          maxlength=${field === 'zip' ? 10 : nothing}
          spellcheck="false"
          required
          aria-invalid=${shown ? 'true' : nothing}
          aria-describedby=${describedBy || nothing}
        />`;
  return html`<div class="field" part="field field-${field}">
    <label part="label" for=${field}>${s[LABELS[field] ?? (field as StringName)]}</label>
    <div class="control">
      ${control}
      ${
        field === 'number'
          ? html`<svg class="icon" part="icon" viewBox="0 0 24 16" aria-hidden="true">
            ${view.mark ?? CARD_OUTLINE}
          </svg>`
          : nothing
      }
    </div>
    ${hintId ? html`<span class="hint" id=${hintId}>${s.expiryHint}</span>` : nothing}
    <p class="error" part="error" id=${errorId} ?hidden=${!shown}>
      ${shown ? view.message(field) : ''}
    </p>
  </div>`;
}
