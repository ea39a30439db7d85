/**
 * A refusal with an HTTP status, thrown anywhere below a route and answered by the app's
 * error handler, and the two JSON shapes such an answer takes: the companion handler's
 * `{ error: { code, message, field? } }` and the provider's `{ error_code, message, param? }`
 * (the sandbox speaks the provider's API, so it answers in the provider's shape).
 */
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

/** `{ error: { code, message, field? } }`: the handler's and the demo's error body. */
export function handlerErrorBody(
  code: string,
  message: string,
  field?: string,
): { error: { code: string; message: string; field?: string } } {
  return { error: field === undefined ? { code, message } : { code, message, field } };
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
  code: string,
  message: string,
  field?: string,
  headers?: Record<string, string>,
): Response {
  return json(handlerErrorBody(code, message, field), status, headers);
}
