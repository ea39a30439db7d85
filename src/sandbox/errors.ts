// The sandbox's side of the shared HTTP pieces (src/http): its error class, which answers
// in the provider's shape `{ error_code, message, param? }`, and JSON body reading with the
// provider's conventions (an empty body reads as `{}`). What the sandbox uses unchanged
// (`json`, `empty`, `readFormBody`) its modules import from src/http themselves. The provider's
// error codes are the provider's vocabulary: src/schemas/error.ts.

import { readJsonBody } from '../http/body.ts';
import { HttpError, providerErrorBody } from '../http/errors.ts';
import { json } from '../http/json.ts';
import { inMinorUnits, minorUnit } from '../schemas/currencies.ts';
import type { ProviderErrorCode } from '../schemas/index.ts';
import { noteBody } from './state/body-mask.ts';

/**
 * An error answer of the simulated API, thrown anywhere inside a route; the app turns it
 * into `{ error_code, message, param? }`. Throwing keeps validation code linear instead of
 * threading Responses back up.
 */
export class ApiError extends HttpError {
  override name = 'ApiError';
  declare readonly code: ProviderErrorCode;

  constructor(status: number, code: ProviderErrorCode, message: string, param?: string) {
    super(status, code, message, param);
  }

  toResponse(): Response {
    return apiErrorResponse(this);
  }
}

/** Any HttpError (the body cap's 413 too) as the provider's `{ error_code, message, param? }`. */
export function apiErrorResponse(error: HttpError): Response {
  return json(
    providerErrorBody(error.code, error.message, error.field),
    error.status,
    error.headers,
  );
}

export const missing = (param: string, message = `Missing parameter ${param}`) =>
  new ApiError(400, 'MISSING', message, param);
export const invalid = (param: string, message = `Invalid parameter ${param}`) =>
  new ApiError(400, 'INVALID', message, param);
export const notFound = (message = 'Resource not found') => new ApiError(404, 'NOT_FOUND', message);

/** Refuses an amount (a refund's, a chargeback's) that is no whole number of `currency`'s minor units. */
export function refuseOffMinorUnit(amount: number, currency: string): void {
  if (inMinorUnits(amount, currency)) return;
  const places = minorUnit(currency);
  throw invalid('amount', `amount must have at most ${places} decimal places in ${currency}`);
}

/**
 * Reads an API request's JSON body; an empty body reads as `{}` so that "all fields optional"
 * routes work (the handler's `readApiJson` refuses an empty body instead: another contract).
 */
export async function readApiJson(request: Request): Promise<unknown> {
  const body = await readJsonBody(request);
  if (body.kind === 'json') {
    // For the request log, which keeps it masked (state/body-mask.ts).
    noteBody(request, body.value);
    return body.value;
  }
  if (body.kind === 'empty') return {};
  throw new ApiError(400, 'INVALID', `Request body is invalid: ${body.message}`, 'body');
}
