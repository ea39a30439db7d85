/**
 * One HTTP request and its whole answer, with a deadline: what the transport needs from
 * the network. On Node, through an undici `Pool` (keep-alive sockets to the provider, far
 * less CPU per call than `fetch`, which builds Web Request and Response objects and
 * streams around them); through `fetch` when the merchant passes one, and wherever undici
 * does not load or does not work (edge runtimes; Bun, whose built-in `undici` has a `Pool`
 * that sends nothing).
 *
 * undici is imported on the first call, not at the top: importing `payment-widget/server`
 * must work where Node's built-in modules do not exist. Its name is not a literal either, so
 * that a merchant's bundler for an edge runtime (esbuild under wrangler, webpack, Vite)
 * leaves it out instead of failing on its `node:` imports; on Node it resolves at run time
 * like any dependency.
 */
import type { Dispatcher, Pool } from 'undici';

export interface ExchangeRequest {
  method: string;
  /** Path and query, already encoded, starting with `/`. */
  path: string;
  headers: Record<string, string>;
  body: string | undefined;
  /** How many times this call was sent before (a retried read's second attempt: 1). */
  resent?: number;
}

interface ExchangeAnswer {
  status: number;
  /** The `Retry-After` header, as sent. */
  retryAfter: string | undefined;
  text: string;
}

/**
 * No answer in time, or no connection / a broken one; `phase` says whether any answer had
 * begun, and `sent` whether the request may have reached the provider at all.
 */
export class ExchangeError extends Error {
  override name = 'ExchangeError';
  /**
   * False when the call failed before a byte was sent (connection refused, no such host, no
   * route): the provider cannot have acted on it, so repeating it is always safe.
   */
  readonly sent: boolean;
  readonly kind: 'timeout' | 'network';
  readonly phase: 'head' | 'body';
  override readonly cause: unknown;
  constructor(kind: 'timeout' | 'network', phase: 'head' | 'body', cause: unknown) {
    super(`${kind} while reading the ${phase === 'head' ? 'answer' : 'answer body'}`);
    this.kind = kind;
    this.phase = phase;
    this.cause = cause;
    this.sent = phase === 'body' || !neverConnected(cause);
  }
}

/**
 * The system errors that mean no connection was made: nothing of the request left this
 * machine. Looked for down the cause chain and in an AggregateError (Node tries every
 * address of a host), as undici and fetch wrap them.
 */
const NOT_CONNECTED = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EAI_NONAME',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/** The code that says why no connection was made, if that is what happened. */
export function connectFailure(error: unknown, depth = 0): string | undefined {
  if (typeof error !== 'object' || error === null || depth > 5) return undefined;
  const { code, cause, errors } = error as { code?: unknown; cause?: unknown; errors?: unknown };
  if (typeof code === 'string' && NOT_CONNECTED.has(code)) return code;
  if (Array.isArray(errors) && errors.length > 0) {
    const codes = errors.map((e) => connectFailure(e, depth + 1));
    if (codes.every((c) => c !== undefined)) return codes[0];
  }
  return connectFailure(cause, depth + 1);
}

const neverConnected = (error: unknown): boolean => connectFailure(error) !== undefined;

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

const UNDICI = 'undici';

/** What `poolExchange` needs of undici: its `Pool`, as the module (or a test) gives it. */
export type LoadUndici = () => Promise<{ Pool: new (origin: string) => Pick<Pool, 'dispatch'> }>;

/**
 * The default: a keep-alive pool of connections to `origin`, driven through undici's
 * dispatcher interface, so the answer is collected as it arrives without a stream or a
 * Response around it. One native timer bounds the whole attempt, body included: undici's own
 * header and body timeouts run on a coarse clock (up to a second late).
 *
 * undici loads on the first call, and its pool is used only once it has shown that it
 * works (`dispatchesLikeUndici`); where it does not load, or does not work, every call goes
 * through the global `fetch` instead. The first call waits for that choice and is then sent
 * once, by whichever was chosen.
 */
export function poolExchange(
  origin: string,
  loadUndici: LoadUndici = () =>
    import(/* webpackIgnore: true */ /* @vite-ignore */ UNDICI) as Promise<typeof import('undici')>,
): Exchange {
  let exchange: Exchange | undefined;
  let loading: Promise<Exchange> | undefined;
  return (request, timeoutMs) => {
    if (exchange !== undefined) return exchange(request, timeoutMs);
    loading ??= choose(origin, loadUndici).then((chosen) => {
      exchange = chosen;
      return chosen;
    });
    return loading.then((chosen) => chosen(request, timeoutMs));
  };
}

async function choose(origin: string, loadUndici: LoadUndici): Promise<Exchange> {
  let pool: Pick<Pool, 'dispatch'> | undefined;
  try {
    pool = new (await loadUndici()).Pool(origin);
  } catch {
    pool = undefined;
  }
  if (pool !== undefined && dispatchesLikeUndici(pool)) {
    const working = pool;
    return (next, ms) => dispatch(working, next, ms);
  }
  return fetchExchange(origin, globalThis.fetch);
}

/**
 * Whether `pool` answers through undici's dispatcher interface, tried on a request that
 * never reaches the network: undici refuses a path without its leading slash before it
 * queues anything, by calling the handler's error callback during `dispatch` itself. So the
 * probe cannot hang (it reads the result as soon as `dispatch` returns), sends nothing, and
 * never stands in for one of the merchant's calls (a PUT is never sent twice). A `Pool` that
 * only looks like undici's fails it: Bun's built-in module has no `dispatch` at all, and a
 * `dispatch` that stays silent or answers in some other shape would be just as unusable.
 */
export function dispatchesLikeUndici(pool: Pick<Pool, 'dispatch'>): boolean {
  let refusal: unknown;
  let accepted: unknown;
  try {
    accepted = pool.dispatch(
      { method: 'GET', path: 'probe-without-leading-slash' },
      {
        onRequestStart() {},
        onResponseStart() {},
        onResponseData() {},
        onResponseEnd() {},
        onResponseError(_controller, error) {
          refusal = error;
        },
      },
    );
  } catch {
    return false;
  }
  const code = (refusal as { code?: unknown } | undefined)?.code;
  return typeof accepted === 'boolean' && code === 'UND_ERR_INVALID_ARG';
}

function dispatch(
  pool: Pick<Pool, 'dispatch'>,
  request: ExchangeRequest,
  timeoutMs: number,
): Promise<ExchangeAnswer> {
  return new Promise<ExchangeAnswer>((resolve, reject) => {
    let controller: Dispatcher.DispatchController | undefined;
    let phase: 'head' | 'body' = 'head';
    let status = 0;
    let retryAfter: string | undefined;
    const chunks: Buffer[] = [];
    let settled = false;
    const settle = (error: unknown, answer?: ExchangeAnswer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (answer === undefined) reject(failure(phase, error));
      else resolve(answer);
    };
    // Made only when needed: an error's stack trace costs more than the rest of a call.
    const tooLong = () => new DOMException('the provider took too long', 'TimeoutError');
    const timer = setTimeout(() => {
      // A request still queued for a connection has no controller yet: it is aborted
      // when it starts, and the caller hears of the timeout now.
      const error = tooLong();
      controller?.abort(error);
      settle(error);
    }, timeoutMs);
    try {
      pool.dispatch(
        {
          method: request.method as Dispatcher.HttpMethod,
          path: request.path,
          headers: request.headers,
          body: request.body ?? null,
        },
        {
          onRequestStart(started) {
            controller = started;
            if (settled) started.abort(tooLong());
          },
          onResponseStart(_controller, statusCode, headers) {
            phase = 'body';
            status = statusCode;
            const value = headers['retry-after'];
            retryAfter = Array.isArray(value) ? value[0] : value;
          },
          onResponseData(_controller, chunk) {
            chunks.push(chunk);
          },
          onResponseEnd() {
            settle(undefined, {
              status,
              retryAfter,
              text: Buffer.concat(chunks).toString('utf8'),
            });
          },
          onResponseError(_controller, error) {
            settle(error);
          },
        },
      );
    } catch (error) {
      settle(error);
    }
  });
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
