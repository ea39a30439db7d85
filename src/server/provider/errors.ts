/**
 * The provider client's error.
 *
 * The provider answers errors in several shapes (seen in its OpenAPI document):
 * `{ error_code, message, param? }`, an array of those (one per invalid field),
 * `{ error_code, error_message }` on 401/403, `{ errors: { detail, type } }` or
 * `{ errors: { field: [messages] } }` from the readers API, and
 * `{ title, details, status }` from the newer APIs. `parseProviderError` folds
 * them all into one `ProviderError` so callers switch on `errorCode` only.
 */
import { codeForStatus } from '../../domain/errors.ts';
import { isRecord } from '../../shared/record.ts';

/** What went wrong between us and the provider. */
export type ProviderErrorKind =
  /** The provider answered with an HTTP error status. */
  | 'http'
  /** The connection failed before a response arrived. */
  | 'network'
  /** No response within the client's `timeoutMs`. */
  | 'timeout'
  /** A 2xx answer whose body does not match the documented shape. */
  | 'invalid_response';

interface ProviderErrorInit {
  kind: ProviderErrorKind;
  status: number;
  errorCode: string;
  message: string;
  param?: string | undefined;
  retryable?: boolean;
  /** How long the provider asked to wait before trying again (its `Retry-After`). */
  retryAfterMs?: number | undefined;
  /** False when nothing of the request reached the provider. Default true. */
  sent?: boolean;
  cause?: unknown;
}

/**
 * A failed call to the provider. `status` is the provider's HTTP status when
 * `kind` is `'http'`; for the other kinds it is the gateway status a proxy
 * would answer with (502, or 504 for a timeout), so it can be passed on as is.
 */
export class ProviderError extends Error {
  override name = 'ProviderError';
  readonly kind: ProviderErrorKind;
  readonly status: number;
  /** The provider's `error_code` (e.g. `INVALID`, `NOT_FOUND`, `CHECKOUT_PROCESSED`). */
  readonly errorCode: string;
  /** The request field the provider blamed, in dot notation (`card.expiry_year`). */
  readonly param: string | undefined;
  /** Whether repeating the same call may succeed (network trouble, 5xx, 429). */
  readonly retryable: boolean;
  /** The provider's `Retry-After`, in milliseconds, when it sent one. */
  readonly retryAfterMs: number | undefined;
  /**
   * Whether the request may have reached the provider. False only when the call failed
   * before anything was sent (connection refused, no such host): then even a payment may be
   * sent again, since the provider cannot have acted on it.
   */
  readonly sent: boolean;

  constructor(init: ProviderErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.kind = init.kind;
    this.status = init.status;
    this.errorCode = init.errorCode;
    this.param = init.param;
    this.retryable = init.retryable ?? (init.status >= 500 || init.status === 429);
    this.retryAfterMs = init.retryAfterMs;
    this.sent = init.sent ?? true;
  }
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

/**
 * Builds a `ProviderError` from an error response's status, (parsed JSON) body and, when
 * the provider sent one, its `Retry-After` in milliseconds.
 */
export function parseProviderError(
  status: number,
  body: unknown,
  retryAfterMs?: number,
): ProviderError {
  let errorCode: string | undefined;
  let message: string | undefined;
  let param: string | undefined;

  // An array lists one error per field; the first one names the field to fix first.
  const first = Array.isArray(body) ? body[0] : body;
  if (isRecord(first)) {
    errorCode = str(first.error_code);
    message = str(first.message) ?? str(first.error_message) ?? str(first.details);
    param = str(first.param);
    if (message === undefined) message = str(first.title);
    const errors = first.errors;
    if (isRecord(errors)) {
      errorCode ??= str(errors.type);
      message ??= str(errors.detail);
      if (message === undefined) {
        // `{ errors: { total_amount: ['is too low'] } }`: the key is the field.
        const [field, problems] = Object.entries(errors)[0] ?? [];
        if (field !== undefined) {
          param = field;
          const text = Array.isArray(problems) ? problems.filter((p) => typeof p === 'string') : [];
          message = `${field} ${text.join(', ') || 'is invalid'}`;
          errorCode ??= 'INVALID';
        }
      }
    }
  }

  return new ProviderError({
    kind: 'http',
    status,
    errorCode: errorCode ?? codeForStatus(status),
    message: message ?? `The provider answered ${status}`,
    param,
    retryAfterMs,
  });
}
