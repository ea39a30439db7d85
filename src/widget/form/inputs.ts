// The form's inputs as paying reads them, at the moment it reads them: the pay part's
// (src/widget/parts/pay.ts), as the only code that reads what was typed. The form controller
// keeps none of it, so the card number and security code are never held anywhere but in their
// inputs.
import type { Control } from './context.ts';
import type { FieldName, Values } from './fields.ts';

/** What is read: the form's root, and which fields are on screen. */
interface Inputs {
  readonly host: { readonly renderRoot: HTMLElement | DocumentFragment };
  /** The fields on screen, in focus order. */
  fields(): FieldName[];
}

/** The input (or select) of `field`, when it is on screen. */
export function controlOf(form: Inputs, field: FieldName): Control | null {
  return form.host.renderRoot.querySelector(`#${field}`);
}

/** The values of the fields on screen, read from their inputs now. */
export function valuesOf(form: Inputs): Values {
  const values: Values = {};
  for (const field of form.fields()) values[field] = controlOf(form, field)?.value ?? '';
  return values;
}
