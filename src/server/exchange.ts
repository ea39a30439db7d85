/**
 * One HTTP request and its whole answer, with a deadline: what the transport needs from
 * the network. By default through an undici `Pool` (keep-alive sockets to the provider,
 * far less CPU per call than `fetch`, which builds Web Request and Response objects and
 * streams around them); through a `fetch` when the merchant passes one.
 */
import { EventEmitter } from 'node:events';
import { type Dispatcher, Pool } from 'undici';

export interface ExchangeRequest {
  method: string;
  /** Path and query, already encoded, starting with `/`. */
  path: string;
  headers: Record<string, string>;
  body: string | undefined;
}

export interface ExchangeAnswer {
  status: number;
  /** The `Retry-After` header, as sent. */
  retryAfter: string | undefined;
  text: string;
}

/** No answer in time, or no connection / a broken one; `phase` says whether any answer had begun. */
export class ExchangeError extends Error {
  override name = 'ExchangeError';
  constructor(
    readonly kind: 'timeout' | 'network',
    readonly phase: 'head' | 'body',
    override readonly cause: unknown,
  ) {
    super(`${kind} while reading the ${phase === 'head' ? 'answer' : 'answer body'}`);
  }
}

/** Sends one request to the provider's origin and reads the whole answer within `timeoutMs`. */
export type Exchange = (request: ExchangeRequest, timeoutMs: number) => Promise<ExchangeAnswer>;

/** undici's own timeouts: connecting, and its backstop header and body limits. */
const UNDICI_TIMEOUTS = new Set([
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

function isTimeout(error: unknown): boolean {
  if (error instanceof DOMException) {
    return error.name === 'TimeoutError' || error.name === 'AbortError';
  }
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && UNDICI_TIMEOUTS.has(code);
}

const failure = (phase: 'head' | 'body', error: unknown) =>
  new ExchangeError(isTimeout(error) ? 'timeout' : 'network', phase, error);

/**
 * The attempt's deadline: one native timer that aborts the request, its body included.
 * undici's own headers and body timeouts run on a coarse clock (up to a second late), and an
 * EventEmitter is the lightest signal it accepts.
 */
interface DeadlineSignal extends EventEmitter {
  aborted: boolean;
  reason: unknown;
}

function deadline(timeoutMs: number): { signal: DeadlineSignal; clear(): void } {
  const signal: DeadlineSignal = Object.assign(new EventEmitter(), {
    aborted: false,
    reason: undefined as unknown,
  });
  const timer = setTimeout(() => {
    signal.aborted = true;
    signal.reason = new DOMException('the provider took too long', 'TimeoutError');
    signal.emit('abort');
  }, timeoutMs);
  return { signal, clear: () => clearTimeout(timer) };
}

/** The default: a keep-alive pool of connections to `origin`. */
export function poolExchange(origin: string): Exchange {
  const pool = new Pool(origin);
  return async (request, timeoutMs) => {
    const time = deadline(timeoutMs);
    let phase: 'head' | 'body' = 'head';
    try {
      const answer = await pool.request({
        method: request.method as Dispatcher.HttpMethod,
        path: request.path,
        headers: request.headers,
        body: request.body ?? null,
        signal: time.signal,
      });
      phase = 'body';
      const text = await answer.body.text();
      const retryAfter = answer.headers['retry-after'];
      return {
        status: answer.statusCode,
        retryAfter: Array.isArray(retryAfter) ? retryAfter[0] : retryAfter,
        text,
      };
    } catch (error) {
      throw failure(phase, time.signal.aborted ? time.signal.reason : error);
    } finally {
      time.clear();
    }
  };
}

/** Through a merchant's `fetch`; redirects are not followed (a 3xx is an answer). */
export function fetchExchange(origin: string, doFetch: typeof fetch): Exchange {
  return async (request, timeoutMs) => {
    const signal = AbortSignal.timeout(timeoutMs);
    let response: Response;
    try {
      response = await doFetch(`${origin}${request.path}`, {
        method: request.method,
        headers: request.headers,
        ...(request.body === undefined ? {} : { body: request.body }),
        redirect: 'manual',
        signal,
      });
    } catch (error) {
      throw failure('head', error);
    }
    try {
      const text = await response.text();
      return {
        status: response.status,
        retryAfter: response.headers.get('retry-after') ?? undefined,
        text,
      };
    } catch (error) {
      throw failure('body', error);
    }
  };
}
