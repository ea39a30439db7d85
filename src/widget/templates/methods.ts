import { html, nothing, type TemplateResult } from 'lit';
import type { Strings } from '../locales/en.ts';
import type { PaymentMethodId } from '../methods/index.ts';

/** The payment method radio group; nothing when only one method is offered. */
export function methodChoice(
  methods: readonly PaymentMethodId[],
  chosen: PaymentMethodId,
  s: Strings,
  choose: (method: PaymentMethodId) => void,
): TemplateResult | typeof nothing {
  if (methods.length < 2) return nothing;
  return html`<fieldset part="methods">
    <legend>${s.paymentMethod}</legend>
    <div class="choices">
      ${methods.map(
        (m) => html`<label class="choice" part="method"
          ><input
            type="radio"
            name="method"
            .value=${m}
            .checked=${chosen === m}
            @change=${() => choose(m)}
          />${s[m]}</label
        >`,
      )}
    </div>
  </fieldset>`;
}
