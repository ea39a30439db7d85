/**
 * Error mapping: whatever a route throws becomes the handler's JSON error
 * `{ error: { code, message, field? } }`. Refusals (PaymentHandlerError and the shared
 * HttpError) keep their status; a provider error keeps the provider's status and code and
 * says whether trying again may help; anything else is a logged 500 that tells nothing.
 */
import { errorJson, HttpError } from '../http/errors.ts';
import { json } from '../http/json.ts';
import { ProviderError } from './errors.ts';
import type { HandlerConfig } from './options.ts';

function providerErrorResponse(error: ProviderError, redact: (text: string) => string): Response {
  const body: { code: string; message: string; field?: string; retryable: boolean } = {
    code: error.errorCode,
    message: redact(error.message),
    retryable: error.retryable,
  };
  if (error.param !== undefined) body.field = error.param;
  return json({ error: body }, error.status >= 400 && error.status <= 599 ? error.status : 502);
}

export function errorResponse(error: unknown, config: HandlerConfig): Response {
  if (error instanceof HttpError) {
    return errorJson(
      error.status,
      error.code,
      config.redact(error.message),
      error.field,
      error.headers,
    );
  }
  if (error instanceof ProviderError) {
    config.log({
      level: error.status >= 500 ? 'error' : 'warn',
      message: `provider: ${error.message}`,
      code: error.errorCode,
      providerStatus: error.status,
    });
    return providerErrorResponse(error, config.redact);
  }
  config.log({
    level: 'error',
    message: `unexpected: ${error instanceof Error ? error.message : String(error)}`,
  });
  return errorJson(500, 'INTERNAL', 'Internal error');
}
