/**
 * The provider client's HTTP core: one place that adds the key, applies the
 * timeout, retries what is safe to retry and turns failures into ProviderError.
 * The bytes travel through exchange.ts: undici's keep-alive pool, or a given `fetch`.
 */
import type { CallContext } from '../types.ts';
import { assertSafeBaseUrl } from './base-url.ts';
import { ProviderError, parseProviderError } from './errors.ts';
import {
  connectFailure,
  type Exchange,
  ExchangeError,
  fetchExchange,
  poolExchange,
} from './exchange.ts';

/** Anything with zod's `safeParse` (zod and zod/mini schemas both qualify). */
interface ResponseSchema<T> {
  safeParse(
    data: unknown,
  ): { success: true; data: T } | { success: false; error: { issues: readonly unknown[] } };
}

type QueryValue = string | number | boolean | readonly (string | number)[] | undefined;
export type Query = Record<string, QueryValue>;

/** A typed filter object as query parameters (its fields are all `QueryValue`s). */
export function asQuery(values: object): Query {
  return values as Query;
}

export interface TransportOptions {
  /** Provider base URL, e.g. `https://api.example.com` or the sandbox's `http://127.0.0.1:4010`. */
  baseUrl: string;
  /** Secret key; sent only as `Authorization: Bearer`. */
  apiKey: string;
  /** Per-attempt timeout in milliseconds. Default 10 000. */
  timeoutMs?: number;
  /** Extra attempts for idempotent calls after a network error, timeout, 429 or 5xx. Default 2. */
  retries?: number;
  /** First backoff step in milliseconds; doubles per attempt, capped at 2 s, fully jittered. Default 100. */
  retryDelayMs?: number;
  /**
   * Calls through this `fetch` instead of the built-in keep-alive pool (undici), e.g. for
   * tests, proxies or instrumentation. Timeouts and retries behave the same.
   */
  fetch?: typeof fetch;
  /** @internal Wraps every attempt's exchange: the handler's client spans (telemetry/client.ts). */
  instrument?: ((exchange: Exchange, base: URL) => Exchange) | undefined;
}

interface CallOptions<T> {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Path below the base URL, segments already encoded (use `seg()`). */
  path: string;
  query?: Query;
  body?: unknown;
  /** Validates a 2xx body; omit for answers without a body (204). */
  schema?: ResponseSchema<T>;
  /** Whether repeating the call is harmless. Default: true for GET only. */
  idempotent?: boolean;
  /** Sent as `X-Request-Id`, so the provider's logs name the request that caused the call. */
  requestId?: string | undefined;
}

export interface Transport {
  call<T>(options: CallOptions<T>): Promise<{ status: number; data: T }>;
}

/** A validated GET, the shape every read endpoint shares. */
export type Get = <T>(
  schema: ResponseSchema<T>,
  path: string,
  query?: Query,
  at?: CallContext,
) => Promise<T>;

const MAX_BACKOFF_MS = 2_000;
/**
 * The longest `Retry-After` a retry waits for. A call runs inside a shopper's request, so
 * a longer one is not waited out: the error goes back with `retryAfterMs` set instead.
 */
export const MAX_RETRY_AFTER_MS = 5_000;

/** Encodes one path segment, so an id can never add `/`, `?` or `..` to a URL. */
export function seg(value: string | number): string {
  const text = String(value);
  if (text === '' || text === '.' || text === '..') {
    throw new TypeError(`Invalid path segment: ${JSON.stringify(text)}`);
  }
  return encodeURIComponent(text);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function queryString(query: Query | undefined): string {
  if (query === undefined) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue;
    // Arrays repeat the key (OpenAPI's default `form` + `explode` style).
    const values = Array.isArray(value) ? value : [value];
    for (const item of values) params.append(key, String(item));
  }
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

/** `Retry-After` (delta-seconds or an HTTP date) in milliseconds from now, if valid. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

export function createTransport(options: TransportOptions): Transport {
  const base = assertSafeBaseUrl(options.baseUrl);
  const basePath = base.pathname.replace(/\/+$/, '');
  if (typeof options.apiKey !== 'string' || options.apiKey.trim() === '') {
    throw new TypeError('apiKey is required');
  }
  const authorization = `Bearer ${options.apiKey}`;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const retries = Math.max(0, Math.min(options.retries ?? 2, 5));
  const retryDelayMs = options.retryDelayMs ?? 100;
  const sent: Exchange =
    options.fetch === undefined
      ? poolExchange(base.origin)
      : fetchExchange(base.origin, options.fetch);
  const exchange = options.instrument?.(sent, base) ?? sent;

  async function attempt<T>(
    call: CallOptions<T>,
    resent: number,
  ): Promise<{ status: number; data: T }> {
    const headers: Record<string, string> = { authorization, accept: 'application/json' };
    if (call.requestId !== undefined) headers['x-request-id'] = call.requestId;
    let body: string | undefined;
    if (call.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(call.body);
    }
    const label = `${call.method} ${call.path}`;

    let answer: Awaited<ReturnType<Exchange>>;
    try {
      answer = await exchange(
        {
          method: call.method,
          path: `${basePath}${call.path}${queryString(call.query)}`,
          headers,
          body,
          resent,
        },
        timeoutMs,
      );
    } catch (error) {
      if (!(error instanceof ExchangeError)) throw error;
      // The cause is kept for debugging; it holds the URL, never the key.
      const timeout = error.kind === 'timeout';
      const refused = error.sent ? undefined : connectFailure(error.cause);
      throw new ProviderError({
        kind: error.kind,
        status: timeout ? 504 : 502,
        errorCode: timeout ? 'PROVIDER_TIMEOUT' : 'PROVIDER_UNREACHABLE',
        message:
          error.phase === 'body'
            ? `${label}: the provider's answer broke off`
            : refused !== undefined
              ? `${label}: the provider could not be reached (${refused}); nothing was sent`
              : timeout
                ? `${label}: no answer from the provider within ${timeoutMs} ms`
                : `${label}: the provider could not be reached`,
        retryable: true,
        sent: error.sent,
        ...(error.phase === 'head' && !timeout ? { cause: error.cause } : {}),
      });
    }

    const { status, text } = answer;
    const ok = status >= 200 && status < 300;
    let parsed: unknown;
    if (text.trim() !== '') {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = undefined;
        if (ok) {
          throw new ProviderError({
            kind: 'invalid_response',
            status: 502,
            errorCode: 'INVALID_PROVIDER_RESPONSE',
            message: `${label}: the provider answered ${status} with a body that is not JSON`,
            retryable: false,
          });
        }
      }
    }

    if (!ok) throw parseProviderError(status, parsed, parseRetryAfter(answer.retryAfter));
    if (call.schema === undefined) return { status, data: parsed as T };
    const valid = call.schema.safeParse(parsed);
    if (!valid.success) {
      throw new ProviderError({
        kind: 'invalid_response',
        status: 502,
        errorCode: 'INVALID_PROVIDER_RESPONSE',
        message: `${label}: the provider's ${status} answer does not match the documented shape`,
        retryable: false,
        cause: valid.error,
      });
    }
    return { status, data: valid.data };
  }

  return {
    async call<T>(call: CallOptions<T>) {
      const idempotent = call.idempotent ?? call.method === 'GET';
      for (let tries = 0; ; tries += 1) {
        try {
          return await attempt(call, tries);
        } catch (error) {
          const again =
            idempotent && tries < retries && error instanceof ProviderError && error.retryable;
          if (!again) throw error;
          const told = error.retryAfterMs ?? 0;
          // Asked to wait longer than a shopper can: give the answer back as it is.
          if (told > MAX_RETRY_AFTER_MS) throw error;
          // Full jitter: many clients retrying after one outage do not arrive together.
          const ceiling = Math.min(MAX_BACKOFF_MS, retryDelayMs * 2 ** tries);
          await sleep(Math.max(told, Math.random() * ceiling));
        }
      }
    },
  };
}
