// The error codes of `payment-error` and of the handler's JSON errors: one closed union, one
// spelling per code, one meaning per code (the README's table says each). The handler sends
// the codes of HANDLER_ERRORS with `retryable` decided by the server; the widget passes
// both on unchanged and adds its own codes for what only the browser sees (no answer, an
// answer it cannot use). The widget imports only the types: the table stays on the server.

/**
 * What the handler answers with: each code's usual HTTP status and whether the same request
 * may succeed later. A provider error keeps the provider's status; its `retryable` is the
 * handler's finding for that one call (a lost process answer read back as untouched is
 * retryable, for instance), which is what the body carries.
 */
export const HANDLER_ERRORS = {
  // The request: fix it rather than sending it again.
  MISSING: { status: 400, retryable: false },
  INVALID: { status: 400, retryable: false },
  INVALID_JSON: { status: 400, retryable: false },
  MALFORMED_REQUEST: { status: 400, retryable: false },
  FORBIDDEN: { status: 403, retryable: false },
  FORBIDDEN_ORIGIN: { status: 403, retryable: false },
  NOT_FOUND: { status: 404, retryable: false },
  METHOD_NOT_ALLOWED: { status: 405, retryable: false },
  PAYLOAD_TOO_LARGE: { status: 413, retryable: false },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, retryable: false },
  TOO_MANY_REQUESTS: { status: 429, retryable: false },
  // The checkout: its state refuses the request.
  CHECKOUT_PROCESSED: { status: 409, retryable: false },
  DUPLICATED_CHECKOUT: { status: 409, retryable: false },
  CONFLICT: { status: 409, retryable: false },
  // The provider, as the handler met it.
  NOT_AUTHORIZED: { status: 401, retryable: false },
  PROVIDER_ERROR: { status: 502, retryable: true },
  PROVIDER_UNREACHABLE: { status: 502, retryable: true },
  PROVIDER_TIMEOUT: { status: 504, retryable: true },
  INVALID_PROVIDER_RESPONSE: { status: 502, retryable: false },
  PROCESS_OUTCOME_UNKNOWN: { status: 502, retryable: false },
  UNSAFE_NEXT_STEP: { status: 502, retryable: false },
  // The merchant's server.
  INTERNAL: { status: 500, retryable: true },
  INVALID_RESOLVED_CHECKOUT: { status: 500, retryable: false },
  // Answers to the provider's webhook only: each asks it to deliver again.
  HOOK_FAILED: { status: 500, retryable: true },
  HOOK_RUNNING: { status: 503, retryable: true },
  STORE_UNAVAILABLE: { status: 503, retryable: true },
} as const satisfies Record<string, { status: number; retryable: boolean }>;

export type HandlerErrorCode = keyof typeof HANDLER_ERRORS;

/**
 * What the widget finds on its own, without (or beyond) an answer from the handler:
 * `NETWORK_ERROR` no answer (the network failed or the connection broke); `TIMEOUT` no answer
 * within the widget's time limit for that call; `BACKEND_ERROR` an error answer that is not
 * the handler's (a proxy's error page, say); `INVALID_RESPONSE` a successful answer the widget
 * cannot use; `INVALID_NEXT_STEP` a 202 whose next step it does not know how to run;
 * `MISSING_CHECKOUT` neither `checkout-id` nor `order` is set; `NO_PAYMENT_METHODS` the
 * checkout can be paid with none of the methods the page offers; `WIDGET_INTEGRITY` a file
 * of the widget (a part, a locale) whose bytes are not the ones built, which it did not run;
 * `UNEXPECTED` a bug in the widget, or (not retryable) a part of it the page's bundler cannot
 * load there. (A list, not a table: the widget decides `retryable` where it throws.)
 */
export const WIDGET_ERROR_CODES = [
  'NETWORK_ERROR',
  'TIMEOUT',
  'BACKEND_ERROR',
  'INVALID_RESPONSE',
  'INVALID_NEXT_STEP',
  'MISSING_CHECKOUT',
  'NO_PAYMENT_METHODS',
  'WIDGET_INTEGRITY',
  'UNEXPECTED',
] as const;

export type WidgetErrorCode = (typeof WIDGET_ERROR_CODES)[number];

/**
 * Every code `payment-error` can carry. `UNSAFE_NEXT_STEP` is both the handler's (it
 * refuses to relay the URL) and the widget's (it refuses to follow it): one rule, one code.
 */
export type PaymentErrorCode = HandlerErrorCode | WidgetErrorCode;

/**
 * The code for an HTTP error status whose own code is unknown (a provider error body without
 * `error_code`, a refusal thrown with a code outside the union): the one table from status to
 * code, read by the provider client and the handler alike.
 */
export function codeForStatus(status: number): HandlerErrorCode {
  switch (status) {
    case 401:
      return 'NOT_AUTHORIZED';
    case 403:
      return 'FORBIDDEN';
    case 404:
      return 'NOT_FOUND';
    case 409:
      return 'CONFLICT';
    case 429:
      return 'TOO_MANY_REQUESTS';
    default:
      return status >= 500 ? 'PROVIDER_ERROR' : 'INVALID';
  }
}

export function isHandlerErrorCode(code: unknown): code is HandlerErrorCode {
  return typeof code === 'string' && Object.hasOwn(HANDLER_ERRORS, code);
}

/** The handler's error body: `{ error: { code, message, retryable, field? } }`. */
export interface HandlerErrorBody {
  error: { code: HandlerErrorCode; message: string; retryable: boolean; field?: string };
}
