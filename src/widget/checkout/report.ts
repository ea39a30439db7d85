// A refused form and an error, as the shopper reads them (the live region) and as the page
// hears them (payment-invalid, payment-error); the page's developer hears, in the console,
// of an answer that stops every payment because of the page, and of a checkout the page
// never named (as of the settings it ignores: ./settings.ts). The pay part's (src/widget/parts/pay.ts), which brings the words.

import type { FieldError } from '../events.ts';
import type { FieldName } from '../form/fields.ts';
import { controlOf } from '../form/inputs.ts';
import type { StringName } from '../locales/en.ts';
import { BackendError, emit, format, nextFrame } from '../parts/kit.ts';
import type { PayContext } from './context.ts';
import { messageFor } from './messages.ts';
import { diagnose, renderedObject } from './settings.ts';

/**
 * Anything thrown, as the error payment-error describes: an unexpected one may be retried.
 * Here, where only the pay part reaches it, and not beside BackendError: what the first paint
 * holds for a part alone is in every page's first paint.
 */
export function asBackendError(error: unknown): BackendError {
  return error instanceof BackendError
    ? error
    : new BackendError(
        'UNEXPECTED',
        error instanceof Error ? error.message : String(error),
        0,
        true,
      );
}

/**
 * Puts an error in the live region (`key`'s text if given, else the code's; over the
 * handler's rate limit, how long to wait) and emits payment-error.
 */
export function report(c: PayContext, error: unknown, retryable?: boolean, key?: StringName): void {
  const e = asBackendError(error);
  diagnoseAnswer(c, e);
  const wait = e.retryAfter;
  const name = key ?? (wait ? 'errTooMany' : messageFor(e.code));
  c.form.setStatus(format(c.strings[name], { minutes: `${Math.ceil(wait / 60)}` }));
  emit(c.host, 'payment-error', {
    code: e.code,
    message: e.message,
    // The server's word, unchanged; only a refusal the widget knows to be final overrides it.
    retryable: retryable ?? e.retryable,
    ...(e.requestId === undefined ? {} : { requestId: e.requestId }),
  });
}

/**
 * What the page's developer must hear of an error: the handler's own 404 (nothing of that
 * name at `endpoint`) or 403 (this page's origin refused); any answer at `endpoint` that is
 * not the handler's (another server's 404 or 405, an HTML page, no answer at all); and a
 * widget still without its checkout once the page has settled.
 */
function diagnoseAnswer(c: PayContext, error: BackendError): void {
  const { status, called, message, code } = error;
  if (code === 'MISSING_CHECKOUT') {
    const { order } = c.host;
    diagnose(c, 'missing', renderedObject(order) ? String(order) : '');
    return;
  }
  // A call that never went out has nothing to say of the endpoint.
  if (called === '') return;
  // The URL whole, as the developer finds it in the network panel: `POST https://shop.example/x`.
  const [method, url = ''] = called.split(' ');
  const call = `${method} ${new URL(url, location.href).href}`;
  // No answer is the page's mistake only where nothing answered yet (a payment whose answer
  // was lost is the shopper's network), and the browser is online (offline, the shopper is
  // told to check their connection).
  const none = status === 0 && !('checkout' in c.lifecycle) && navigator.onLine;
  if (none || code === 'BACKEND_ERROR' || code === 'INVALID_RESPONSE') {
    diagnose(c, 'foreign', call, `${status}`, message, code === 'TIMEOUT' ? '1' : '');
  } else if (status === 404 || status === 403) {
    diagnose(c, 'endpoint', call, `${status}`, message);
  }
}

/**
 * Refuses a form with `invalid` fields: focuses the first once its error is drawn, then says
 * so in the live region, and emits payment-invalid with each field's error once both are done.
 */
export async function refuseInvalid(c: PayContext, invalid: readonly FieldName[]): Promise<void> {
  const { host, form } = c;
  const now = c.lifecycle;
  // Emptied first, so that the same summary after another refused submit is said again.
  form.setStatus('');
  const errors: FieldError[] = invalid.map((field) => ({
    field,
    code: form.view.errors[field] ?? 'invalid',
    message: form.message(field),
  }));
  await host.updateComplete;
  const [first] = invalid;
  if (first) controlOf(form, first)?.focus();
  // Focus first, the summary a frame later. Landing on the field, a screen reader says its
  // name, "invalid entry" and its error (aria-describedby); the polite summary then waits
  // its turn behind that. The other way round, the focus move cuts the summary off (readers
  // stop speaking when focus moves), or it is said after the field as if it were news. The
  // summary names no field and no error, so it never says the field's words again.
  await nextFrame();
  if (c.lifecycle === now && form.view.status === '') form.setStatus(c.strings.fixFields);
  emit(host, 'payment-invalid', { errors });
}
