/**
 * The provider client's HTTP core: one place that adds the key, applies the
 * timeout, retries what is safe to retry and turns failures into ProviderError.
 */
import { ProviderError, parseProviderError } from './errors.ts';
import { assertSafeBaseUrl } from './url-safety.ts';

/** Anything with zod's `safeParse` (zod and zod/mini schemas both qualify). */
export interface ResponseSchema<T> {
  safeParse(
    data: unknown,
  ): { success: true; data: T } | { success: false; error: { issues: readonly unknown[] } };
}

export type QueryValue = string | number | boolean | readonly (string | number)[] | undefined;
export type Query = Record<string, QueryValue>;

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
  /** A `fetch` to use instead of the global one (tests, proxies, instrumentation). */
  fetch?: typeof fetch;
}

export interface CallOptions<T> {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Path below the base URL, segments already encoded (use `seg()`). */
  path: string;
  query?: Query;
  body?: unknown;
  /** Validates a 2xx body; omit for answers without a body (204). */
  schema?: ResponseSchema<T>;
  /** Whether repeating the call is harmless. Default: true for GET only. */
  idempotent?: boolean;
}

export interface Transport {
  call<T>(options: CallOptions<T>): Promise<{ status: number; data: T }>;
}

const MAX_BACKOFF_MS = 2_000;

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

function appendQuery(url: URL, query: Query | undefined): void {
  if (query === undefined) return;
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue;
    // Arrays repeat the key (OpenAPI's default `form` + `explode` style).
    const values = Array.isArray(value) ? value : [value];
    for (const item of values) url.searchParams.append(key, String(item));
  }
}

function isTimeout(error: unknown): boolean {
  return (
    error instanceof DOMException && (error.name === 'TimeoutError' || error.name === 'AbortError')
  );
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
  const doFetch = options.fetch ?? globalThis.fetch;

  async function attempt<T>(call: CallOptions<T>): Promise<{ status: number; data: T }> {
    const url = new URL(base.origin);
    url.pathname = `${basePath}${call.path}`;
    appendQuery(url, call.query);
    const headers: Record<string, string> = { authorization, accept: 'application/json' };
    let body: string | undefined;
    if (call.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(call.body);
    }
    const label = `${call.method} ${call.path}`;

    let response: Response;
    try {
      response = await doFetch(url, {
        method: call.method,
        headers,
        body,
        redirect: 'manual',
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      // The cause is kept for debugging; it holds the URL, never the key.
      if (isTimeout(error)) {
        throw new ProviderError({
          kind: 'timeout',
          status: 504,
          errorCode: 'PROVIDER_TIMEOUT',
          message: `${label}: no answer from the provider within ${timeoutMs} ms`,
          retryable: true,
        });
      }
      throw new ProviderError({
        kind: 'network',
        status: 502,
        errorCode: 'PROVIDER_UNREACHABLE',
        message: `${label}: the provider could not be reached`,
        retryable: true,
        cause: error,
      });
    }

    let text: string;
    try {
      text = await response.text();
    } catch (error) {
      throw new ProviderError({
        kind: isTimeout(error) ? 'timeout' : 'network',
        status: isTimeout(error) ? 504 : 502,
        errorCode: isTimeout(error) ? 'PROVIDER_TIMEOUT' : 'PROVIDER_UNREACHABLE',
        message: `${label}: the provider's answer broke off`,
        retryable: true,
      });
    }
    let json: unknown;
    if (text.trim() !== '') {
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
        if (response.ok) {
          throw new ProviderError({
            kind: 'invalid_response',
            status: 502,
            errorCode: 'INVALID_PROVIDER_RESPONSE',
            message: `${label}: the provider answered ${response.status} with a body that is not JSON`,
            retryable: false,
          });
        }
      }
    }

    if (!response.ok) throw parseProviderError(response.status, json);
    if (call.schema === undefined) return { status: response.status, data: json as T };
    const parsed = call.schema.safeParse(json);
    if (!parsed.success) {
      throw new ProviderError({
        kind: 'invalid_response',
        status: 502,
        errorCode: 'INVALID_PROVIDER_RESPONSE',
        message: `${label}: the provider's ${response.status} answer does not match the documented shape`,
        retryable: false,
        cause: parsed.error,
      });
    }
    return { status: response.status, data: parsed.data };
  }

  return {
    async call<T>(call: CallOptions<T>) {
      const idempotent = call.idempotent ?? call.method === 'GET';
      for (let tries = 0; ; tries += 1) {
        try {
          return await attempt(call);
        } catch (error) {
          const again =
            idempotent && tries < retries && error instanceof ProviderError && error.retryable;
          if (!again) throw error;
          // Full jitter: many clients retrying after one outage do not arrive together.
          const ceiling = Math.min(MAX_BACKOFF_MS, retryDelayMs * 2 ** tries);
          await sleep(Math.random() * ceiling);
        }
      }
    },
  };
}
