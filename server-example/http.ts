/**
 * The shop's own JSON answers and request-body rules, in the error shape the companion
 * handler answers with (`{ error: { code, message, field? } }`), so the widget reads the
 * shop's refusals like the handler's. Built on Hono's middleware (body limit, 405 with
 * `Allow`); a merchant's app would have its own equivalents, which is why these are not
 * part of `payment-widget/server`.
 */
import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Hono, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { methodNotAllowed } from 'hono/method-not-allowed';

const JSON_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'application/json; charset=utf-8',
  // Payments and readers change under the page's feet; a cached answer would lie.
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
};

/** A page of the shop: HTML, never cached (it shows a checkout's state). */
export function html(body: string, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(body, {
    status,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'same-origin',
      ...headers,
    },
  });
}

/** `body` as JSON with `status` (default 200); `headers` add to or override the defaults. */
export function json(body: unknown, status = 200, headers?: Record<string, string>): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: headers === undefined ? JSON_HEADERS : { ...JSON_HEADERS, ...headers },
  });
}

/** An answer without a body; anything but a 204 or 304 says `Content-Length: 0`. */
export function empty(status: number, headers?: Record<string, string>): Response {
  const withLength =
    status === 204 || status === 304 ? headers : { 'content-length': '0', ...headers };
  return new Response(null, {
    status,
    ...(withLength === undefined ? {} : { headers: withLength }),
  });
}

/** A refusal thrown below a route and answered by the app's error handler. */
export class HttpError extends Error {
  override name = 'HttpError';
  readonly status: number;
  readonly code: string;
  /** The request field at fault (`amount`, `body`, `origin`), when there is one. */
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

/** `{ error: { code, message, field? } }`: the shop's own errors (its pages, files, in-person routes), with codes of its own. */
export function shopErrorBody(
  code: string,
  message: string,
  field?: string,
): { error: { code: string; message: string; field?: string } } {
  return { error: field === undefined ? { code, message } : { code, message, field } };
}

export function errorJson(
  status: number,
  code: string,
  message: string,
  field?: string,
  headers?: Record<string, string>,
): Response {
  return json(shopErrorBody(code, message, field), status, headers);
}

/** Refuses a body over `maxBytes` with 413 before any route reads it (Hono's body limit). */
export function limitBody(maxBytes: number): MiddlewareHandler {
  return bodyLimit({
    maxSize: maxBytes,
    onError: () => {
      throw new HttpError(
        413,
        'PAYLOAD_TOO_LARGE',
        `The body is larger than ${maxBytes} bytes`,
        'body',
        { connection: 'close' },
      );
    },
  });
}

/** Refuses a body that does not say it is JSON (`application/json` or `+json`) with 415. */
export const requireJsonType: MiddlewareHandler = async (c, next) => {
  const mediaType = c.req.header('content-type')?.split(';')[0]?.trim().toLowerCase() ?? '';
  if (mediaType !== 'application/json' && !/^application\/[\w.+-]+\+json$/.test(mediaType)) {
    throw new HttpError(
      415,
      'UNSUPPORTED_MEDIA_TYPE',
      'The body must be JSON (Content-Type: application/json)',
      'content-type',
    );
  }
  await next();
};

/** What a JSON body turned out to be; each route decides what an empty one means. */
export type JsonBody =
  | { kind: 'json'; value: unknown }
  | { kind: 'empty' }
  | { kind: 'invalid'; message: string };

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Reads and parses a JSON body (after `limitBody`), without throwing on bad input. */
export async function readJsonBody(request: Request): Promise<JsonBody> {
  let bytes: ArrayBuffer;
  try {
    bytes = await request.arrayBuffer();
  } catch {
    // A client that hung up mid-body: nobody reads the answer, but it stays a 4xx.
    throw new HttpError(400, 'INVALID', 'The body could not be read to its end', 'body');
  }
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return { kind: 'invalid', message: 'The body is not valid UTF-8' };
  }
  if (text.trim() === '') return { kind: 'empty' };
  try {
    return { kind: 'json', value: JSON.parse(text) as unknown };
  } catch {
    return { kind: 'invalid', message: 'The body is not valid JSON' };
  }
}

/** 405 with `Allow` for a path whose routes exist but not for this method, as JSON. */
export function methodNotAllowedJson(
  app: Hono,
  errorBody: (code: string, message: string) => unknown,
): MiddlewareHandler {
  return methodNotAllowed({
    app,
    onMethodNotAllowed: (c, methods) => {
      const allow = methods.filter((m) => m !== 'HEAD' && m !== 'OPTIONS').join(', ');
      return json(
        errorBody('METHOD_NOT_ALLOWED', `${c.req.method} is not allowed here; use ${allow}`),
        405,
        { allow },
      );
    },
  });
}

/**
 * A header Node cannot read: a name with a space or a control character in it, a value with a
 * control character, a Content-Length that is not a number, two that differ, or one beside
 * Transfer-Encoding.
 */
const HEADER_ERRORS = [
  'HPE_INVALID_HEADER_TOKEN',
  'HPE_INVALID_CONTENT_LENGTH',
  'HPE_UNEXPECTED_CONTENT_LENGTH',
  'HPE_INVALID_TRANSFER_ENCODING',
];
const BAD_HEADER: [string, string, string] = [
  '400 Bad Request',
  'A header is malformed',
  'headers',
];

/** Node's status for each refusal it makes before the app runs, what it means, the part at fault. */
const REFUSALS: Record<string, [status: string, message: string, field: string]> = {
  HPE_HEADER_OVERFLOW: [
    '431 Request Header Fields Too Large',
    'The request line and headers are too large',
    'headers',
  ],
  ERR_HTTP_REQUEST_TIMEOUT: ['408 Request Timeout', 'The request came too slowly', 'request'],
  ...Object.fromEntries(HEADER_ERRORS.map((code) => [code, BAD_HEADER])),
  HPE_INVALID_CHUNK_SIZE: ['400 Bad Request', 'The chunked body is malformed', 'body'],
  HPE_CHUNK_EXTENSIONS_OVERFLOW: [
    '413 Payload Too Large',
    'A chunk extension is too large',
    'body',
  ],
};
const NOT_HTTP: [string, string, string] = [
  '400 Bad Request',
  'The request is not HTTP',
  'request',
];

/**
 * How long the shop waits for a request, where Node's defaults (the head within 60 s, the
 * whole request within 300 s, checked every 30 s) let a client that sends a header now and
 * then hold a connection for minutes: the head within 10 s of the connection opening, the
 * whole request within 30 s, checked every second; too slow, it gets the 408 below. The
 * answer is not bounded (a slow payment, a long download).
 */
export const REQUEST_TIMEOUTS = {
  headersTimeout: 10_000,
  requestTimeout: 30_000,
  connectionsCheckingInterval: 1_000,
} as const;

/**
 * A request Node refuses before the app sees it (a request line and headers over its limit, a
 * 60 KB path say, a malformed header or chunked body, or bytes that are not HTTP) gets the shop's JSON error naming the part at
 * fault, not Node's bare status with an empty body (the sandbox does the same in its shape).
 * What Node refuses once it has parsed a request (no Host in HTTP/1.1, an Expect other than
 * 100-continue) the server lets reach toNodeListener, which answers it (server.ts).
 */
export function answerClientErrors(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    // As Node does: nothing is written once an answer on this connection has begun.
    const answering = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (!socket.writable || answering?.headersSent) {
      socket.destroy();
      return;
    }
    const [status, message, field] = REFUSALS[error.code ?? ''] ?? NOT_HTTP;
    const body = JSON.stringify({
      error: { code: 'MALFORMED_REQUEST', message, retryable: false, field },
    });
    socket.end(
      `HTTP/1.1 ${status}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
    );
  });
}
