/** A refusal or an error as the shopper reads it (the live region) and as the page hears it. */
import { diagnoseAnswer } from '../diagnose.ts';
import { emit, type FieldError } from '../events.ts';
import type { FormController } from '../form/controller.ts';
import type { FieldName } from '../form/fields.ts';
import type { StringName, Strings } from '../locales/en.ts';
import { format } from '../locales/load.ts';
import type { BackendError } from './backend.ts';
import { messageFor } from './words.ts';

/**
 * Shows the sentence for `e` (`key`'s text if given, else the code's; over the handler's rate
 * limit, how long to wait), then emits payment-error on `host`.
 */
export function reportError(
  host: HTMLElement,
  show: (sentence: string) => void,
  strings: Strings,
  e: BackendError,
  retryable?: boolean,
  key?: StringName,
): void {
  diagnoseAnswer(e);
  // A code such as "constructor" finds an Object member, not a key: errBackend too.
  const wait = e._retryAfter;
  const name = key ?? (wait ? 'errTooMany' : messageFor(e.code));
  show(format(strings[name], { minutes: `${Math.ceil(wait / 60)}` }));
  emit(host, 'payment-error', {
    code: e.code,
    message: e.message,
    // The server's word, unchanged; only a refusal the widget knows to be final overrides it.
    retryable: retryable ?? e.retryable,
    ...(e.requestId === undefined ? {} : { requestId: e.requestId }),
  });
}

/**
 * Refuses a form with `invalid` fields: says so in the live region, emits payment-invalid with
 * each field's error, and focuses the first invalid field once drawn.
 */
export async function refuseInvalid(
  host: HTMLElement & { readonly updateComplete: Promise<boolean> },
  form: FormController,
  invalid: readonly FieldName[],
  strings: Strings,
): Promise<void> {
  form.setStatus(strings.fixFields);
  const errors: FieldError[] = invalid.map((field) => ({
    field,
    code: form.errors[field] ?? 'invalid',
    message: form.message(field),
  }));
  emit(host, 'payment-invalid', { errors });
  await host.updateComplete;
  const [first] = invalid;
  if (first) form.control(first)?.focus();
}
