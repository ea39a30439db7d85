// What the form does as the shopper types, with the card rules: the field's text regrouped
// as its network writes it (the caret kept after the same digit), a backspace over a
// separator, what is wrong with each field and what says so, and payment-change. The
// pay part's (src/widget/parts/pay.ts): it loads outside the form's first paint, and acts on
// the form through its controller (./context.ts).

import { deleteOverSeparator, isRetypedField, isTypedField, retype } from '../../card/index.ts';
import type { StringName } from '../locales/en.ts';
import { PAYING } from '../methods/pay.ts';
import { emit } from '../parts/kit.ts';
import type { Control, TypingForm } from './context.ts';
import type { FieldName } from './fields.ts';
import { controlOf, valuesOf } from './inputs.ts';
import { validate } from './rules.ts';

/**
 * A card field's text regrouped as its rules write it, the caret after the same digit; in
 * the ZIP code, the tax id and a boleto's postal code, the digits of an Arabic, Persian or
 * full-width keyboard as ASCII ones (isRetypedField()). Any other field is kept as typed.
 */
export function regroup(form: TypingForm, input: Control, field: FieldName): void {
  if (!(input instanceof HTMLInputElement) || !isRetypedField(field)) return;
  const caret = input.selectionStart ?? input.value.length;
  const next = retype(field, input.value, caret, form.view.network);
  if (next.value === input.value) return;
  input.value = next.value;
  // Setting the value leaves the caret at its end (HTML's value setter), where typing
  // at the end wants it: placing it again would only force a layout. Only the focused
  // input has a caret; moving it elsewhere can steal focus in Safari.
  if (next.caret !== next.value.length && form.host.shadowRoot?.activeElement === input) {
    input.setSelectionRange(next.caret, next.caret);
  }
}

/**
 * Backspace right after a separator that formatting puts back ("4242 |4242") deletes the
 * digit before it, and Delete right before one the digit after it, instead of doing nothing.
 */
export function beforeInput(event: InputEvent): void {
  const input = event.target as HTMLInputElement;
  const forward = event.inputType === 'deleteContentForward';
  // The formatted fields' ids are their names (the code has no separator, so is left alone).
  if ((!forward && event.inputType !== 'deleteContentBackward') || !isTypedField(input.id)) return;
  const at = input.selectionStart ?? 0;
  const next = deleteOverSeparator(input.value, at, input.selectionEnd ?? at, forward);
  if (!next) return;
  event.preventDefault();
  input.value = next.value;
  input.setSelectionRange(next.caret, next.caret);
  input.dispatchEvent(
    new InputEvent('input', { bubbles: true, composed: true, inputType: event.inputType }),
  );
}

/** Re-derives errors and the network from the inputs. */
export function refresh(form: TypingForm): void {
  const values = valuesOf(form);
  const method = PAYING[form.view.method];
  form.set({
    errors: validate(form.fields(), values, method.checks),
    network: method.network?.(values),
  });
}

/** After an edit (or a choice of method): errors and the network again, and payment-change. */
export function edited(form: TypingForm): void {
  refresh(form);
  const { errors, network, method } = form.view;
  emit(form.host, 'payment-change', {
    valid: Object.keys(errors).length === 0,
    complete: form.fields().every((f) => (controlOf(form, f)?.value ?? '') !== ''),
    network,
    paymentMethod: method,
  });
}

/** The rules have come: what was typed before is regrouped as they write it. */
export function arrived(form: TypingForm): void {
  // The number first: its network sets the security code's length.
  refresh(form);
  for (const field of form.fields()) {
    const input = controlOf(form, field);
    if (input?.value) regroup(form, input, field);
  }
  refresh(form);
}

/** Checks every field as a submit does, so every error shows; the invalid ones in focus order. */
export function check(form: TypingForm): FieldName[] {
  refresh(form);
  const { errors, formState } = form.view;
  form.set({ formState: { ...formState, submitted: true } });
  return form.fields().filter((f) => errors[f]);
}

/** What the shopper reads under a field; '' while it has no error. */
export function message(form: TypingForm, field: FieldName): string {
  const code = form.view.errors[field];
  if (!code) return '';
  // Only fields with a rule of their own are ever invalid, and each has its message under
  // err{Field} (errNumber, errTaxId...); any other error under err{Code}: errRequired,
  // errExpired.
  const name = code === 'invalid' ? field : code;
  return form.strings()[`err${name[0]?.toUpperCase()}${name.slice(1)}` as StringName];
}

/** Another saved card (or "Use a new card", token '') is chosen: errors derived again once shown. */
export function chooseSaved(form: TypingForm, token: string): void {
  form.set({ savedToken: token });
  form.choose();
  void form.host.updateComplete.then(() => refresh(form));
}
