/**
 * The handler's errors: `PaymentHandlerError`, the refusal a route or a merchant's hook
 * throws, and the mapping that turns whatever a route throws into the handler's JSON error
 * `{ error: { code, message, retryable, field? } }`, its code one of `PaymentErrorCode`'s.
 * Refusals (PaymentHandlerError and the shared HttpError) keep their status; a provider error
 * keeps the provider's status, and its code when the union has it (else the code for that
 * status), and says whether trying again may help; anything else is a logged 500 that tells
 * nothing.
 */
import {
  codeForStatus,
  HANDLER_ERRORS,
  type HandlerErrorCode,
  isHandlerErrorCode,
} from '../domain/errors.ts';
import { errorJson, HttpError } from '../http/errors.ts';
import { ProviderError } from './provider/errors.ts';
import { fixFor } from './provider/fixes.ts';
import type { Logger } from './types.ts';

/**
 * An error the handler turns into a JSON response
 * `{ error: { code, message, retryable, field? } }` with `status`.
 *
 * Throw it from `resolveCheckout` (or other hooks) to refuse a request with a 4xx, e.g.
 * `throw new PaymentHandlerError(400, 'INVALID', 'No such product', 'order.sku')`.
 * Its code is one of `PaymentErrorCode`'s, so the widget and the merchant's page read one
 * meaning from it. Any other error thrown by a hook becomes a 500 with a generic message.
 */
export class PaymentHandlerError extends HttpError {
  override name = 'PaymentHandlerError';
  declare readonly code: HandlerErrorCode;

  /** Whether the same call may succeed later: the code's usual answer unless told otherwise. */
  readonly retryable: boolean;

  constructor(
    status: number,
    code: HandlerErrorCode,
    message: string,
    field?: string,
    headers: Record<string, string> = {},
    options: { retryable?: boolean; cause?: unknown } = {},
  ) {
    super(status, code, message, field, headers);
    this.retryable = options.retryable ?? HANDLER_ERRORS[code]?.retryable ?? false;
    if (options.cause !== undefined) this.cause = options.cause;
  }
}

/** What a `TOO_MANY_REQUESTS` thrown without `retry-after` (by a merchant's hook) asks for. */
const DEFAULT_RETRY_AFTER_S = 60;
const isRetryAfter = (name: string) => name.toLowerCase() === 'retry-after';

/**
 * A provider error's code as the widget reads it: the provider's own when the union has it
 * (`CHECKOUT_PROCESSED`, `INVALID` ...), else the code of its status. A provider's 429 is the
 * merchant's quota, not the shopper's doing: `PROVIDER_ERROR`, unlike the handler's own
 * `TOO_MANY_REQUESTS`.
 */
export function providerErrorCode(error: ProviderError): HandlerErrorCode {
  const code = isHandlerErrorCode(error.errorCode) ? error.errorCode : codeForStatus(error.status);
  return code === 'TOO_MANY_REQUESTS' ? 'PROVIDER_ERROR' : code;
}

/** What the mapping needs of the handler: its logger, and the key's redaction. */
interface ErrorContext {
  log: Logger;
  /** Replaces the API key wherever it appears in a text we did not write. */
  redact(text: string): string;
  /** The provider's base URL, named in the fix for a provider that cannot be reached. */
  baseUrl?: string | undefined;
}

/**
 * Whatever a route or `createCheckout()` threw, as the handler's typed error: its code one of
 * `PaymentErrorCode`'s, its status and `retryable` the answer's. Logs what the merchant's
 * developer must see (a provider error with the option to fix, anything unexpected).
 */
export function toHandlerError(error: unknown, config: ErrorContext): PaymentHandlerError {
  if (error instanceof PaymentHandlerError && isHandlerErrorCode(error.code)) return error;
  if (error instanceof HttpError) {
    const code = isHandlerErrorCode(error.code) ? error.code : codeForStatus(error.status);
    if (code !== error.code) {
      config.log({
        level: 'warn',
        message: `a refusal's code ${error.code} is not a PaymentErrorCode; answered as ${code}`,
      });
    }
    return new PaymentHandlerError(error.status, code, error.message, error.field, error.headers, {
      cause: error,
    });
  }
  if (error instanceof ProviderError) {
    const fix = config.baseUrl === undefined ? undefined : fixFor(error, config.baseUrl);
    // A checkout paid (or failed) before this payment of it, from a second tab or a second
    // click: the provider refused to charge it again, and the widget reads its outcome back.
    // Nothing to fix, so nothing on the console (no logger), where it would read as trouble.
    const settled = error.errorCode === 'CHECKOUT_PROCESSED';
    config.log({
      level: error.status >= 500 || fix !== undefined ? 'error' : settled ? 'info' : 'warn',
      message: `provider: ${error.message}${fix === undefined ? '' : `; ${fix.full}`}`,
      code: error.errorCode,
      providerStatus: error.status,
      ...(fix === undefined ? {} : { problem: fix.problem }),
    });
    const status = error.status >= 400 && error.status <= 599 ? error.status : 502;
    return new PaymentHandlerError(
      status,
      providerErrorCode(error),
      config.redact(`${error.message}${fix === undefined ? '' : `; ${fix.short}`}`),
      error.param,
      {},
      { retryable: error.retryable, cause: error },
    );
  }
  config.log({
    level: 'error',
    message: `unexpected: ${error instanceof Error ? error.message : String(error)}`,
  });
  return new PaymentHandlerError(
    500,
    'INTERNAL',
    'Internal error',
    undefined,
    {},
    { cause: error },
  );
}

export function errorResponse(error: unknown, config: ErrorContext): Response {
  const e = toHandlerError(error, config);
  let headers = e.headers;
  if (e.code === 'TOO_MANY_REQUESTS' && !Object.keys(headers).some(isRetryAfter)) {
    // The widget reads when to try again from it, and the contract promises one.
    config.log({
      level: 'warn',
      message: `a TOO_MANY_REQUESTS refusal came without a retry-after header; answered with ${DEFAULT_RETRY_AFTER_S} s`,
    });
    headers = { ...headers, 'retry-after': String(DEFAULT_RETRY_AFTER_S) };
  }
  if (e.code === 'FORBIDDEN_ORIGIN') {
    // A setting to change, not a shopper's mistake: the merchant's developer must see it.
    config.log({ level: 'warn', message: e.message, problem: 'forbidden-origin' });
  }
  return errorJson(e.status, e.code, config.redact(e.message), e.field, headers, e.retryable);
}
