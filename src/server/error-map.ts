/**
 * Error mapping: whatever a route throws becomes the handler's JSON error
 * `{ error: { code, message, retryable, field? } }`, its code one of `PaymentErrorCode`'s.
 * Refusals (PaymentHandlerError and the shared HttpError) keep their status; a provider error
 * keeps the provider's status, and its code when the union has it (else the code for that
 * status), and says whether trying again may help; anything else is a logged 500 that tells
 * nothing.
 */
import { type HandlerErrorCode, isHandlerErrorCode } from '../domain/errors.ts';
import { errorJson, HttpError } from '../http/errors.ts';
import { ProviderError } from './errors.ts';
import type { HandlerConfig } from './options.ts';

/** What a `TOO_MANY_REQUESTS` thrown without `retry-after` (by a merchant's hook) asks for. */
const DEFAULT_RETRY_AFTER_S = 60;
const isRetryAfter = (name: string) => name.toLowerCase() === 'retry-after';

/** The union's code for an HTTP status whose own code it does not know. */
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
    default:
      return status >= 500 || status === 429 ? 'PROVIDER_ERROR' : 'INVALID';
  }
}

/**
 * A provider error's code as the widget reads it: the provider's own when the union has it
 * (`CHECKOUT_PROCESSED`, `INVALID` ...), else the code of its status. A provider's 429 is the
 * merchant's quota, not the shopper's doing: `PROVIDER_ERROR`, unlike the handler's own
 * `TOO_MANY_REQUESTS`.
 */
export function providerErrorCode(error: ProviderError): HandlerErrorCode {
  const code = error.errorCode;
  if (isHandlerErrorCode(code) && code !== 'TOO_MANY_REQUESTS') return code;
  return codeForStatus(error.status);
}

export function errorResponse(error: unknown, config: HandlerConfig): Response {
  if (error instanceof HttpError) {
    const code = isHandlerErrorCode(error.code) ? error.code : codeForStatus(error.status);
    if (code !== error.code) {
      config.log({
        level: 'warn',
        message: `a refusal's code ${error.code} is not a PaymentErrorCode; answered as ${code}`,
      });
    }
    let headers = error.headers;
    if (code === 'TOO_MANY_REQUESTS' && !Object.keys(headers).some(isRetryAfter)) {
      // The widget reads when to try again from it, and the contract promises one.
      config.log({
        level: 'warn',
        message: `a TOO_MANY_REQUESTS refusal came without a retry-after header; answered with ${DEFAULT_RETRY_AFTER_S} s`,
      });
      headers = { ...headers, 'retry-after': String(DEFAULT_RETRY_AFTER_S) };
    }
    return errorJson(error.status, code, config.redact(error.message), error.field, headers);
  }
  if (error instanceof ProviderError) {
    config.log({
      level: error.status >= 500 ? 'error' : 'warn',
      message: `provider: ${error.message}`,
      code: error.errorCode,
      providerStatus: error.status,
    });
    const status = error.status >= 400 && error.status <= 599 ? error.status : 502;
    return errorJson(
      status,
      providerErrorCode(error),
      config.redact(error.message),
      error.param,
      undefined,
      error.retryable,
    );
  }
  config.log({
    level: 'error',
    message: `unexpected: ${error instanceof Error ? error.message : String(error)}`,
  });
  return errorJson(500, 'INTERNAL', 'Internal error');
}
