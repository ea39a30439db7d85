/**
 * A refusal with an HTTP status, thrown anywhere below a route and answered by the app's
 * error handler, and the two JSON shapes such an answer takes: the companion handler's
 * `{ error: { code, message, retryable, field? } }` and the provider's `{ error_code, message, param? }`
 * (the sandbox speaks the provider's API, so it answers in the provider's shape).
 */
import { HANDLER_ERRORS, type HandlerErrorBody, type HandlerErrorCode } from '../domain/errors.ts';
import { json } from './json.ts';

export class HttpError extends Error {
  override name = 'HttpError';
  readonly status: number;
  readonly code: string;
  /** The request field at fault (`card.number`, `body`, `origin`), when there is one. */
  readonly field: string | undefined;
  readonly headers: Record<string, string>;

  constructor(
    status: number,
    code: string,
    message: string,
    field?: string,
    headers: Record<string, string> = {},
  ) {
    super(message);
    this.status = status;
    this.code = code;
    this.field = field;
    this.headers = headers;
  }
}

/**
 * `{ error: { code, message, retryable, field? } }`: the handler's error body. `retryable`
 * is the code's usual one unless the caller knows better for this answer.
 */
export function handlerErrorBody(
  code: HandlerErrorCode,
  message: string,
  field?: string,
  retryable: boolean = HANDLER_ERRORS[code].retryable,
): HandlerErrorBody {
  return {
    error: field === undefined ? { code, message, retryable } : { code, message, retryable, field },
  };
}

/** `{ error_code, message, param? }`: the provider's (and so the sandbox's) error body. */
export function providerErrorBody(
  code: string,
  message: string,
  param?: string,
): { error_code: string; message: string; param?: string } {
  return param === undefined ? { error_code: code, message } : { error_code: code, message, param };
}

/** The handler's error answer. */
export function errorJson(
  status: number,
  code: HandlerErrorCode,
  message: string,
  field?: string,
  headers?: Record<string, string>,
  retryable?: boolean,
): Response {
  return json(handlerErrorBody(code, message, field, retryable), status, headers);
}
