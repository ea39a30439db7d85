/**
 * What a server this project starts (the sandbox; the demo has its own copy) answers a request
 * Node refuses before any listener sees it: a request line and headers over Node's size limit
 * (a 60 KB path, say), a malformed header or chunked body, a request that came too slowly, or
 * a malformed request line (bytes that are not HTTP). Node's own answer is a bare status with
 * an empty body; this is the server's JSON error, naming the part at fault. (A request without
 * Host, or with an Expect other than 100-continue, Node refuses after parsing it: the adapter's,
 * node.ts.) A merchant's server is the merchant's: the companion handler never sets this.
 */
import { maxHeaderSize, type Server } from 'node:http';
import type { Duplex } from 'node:stream';

type ErrorBody = (code: 'MALFORMED_REQUEST', message: string, field: string) => unknown;

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

/** Node's status for each refusal, what it means, and the part at fault. */
const REFUSALS: Record<string, [status: string, message: string, field: string]> = {
  HPE_HEADER_OVERFLOW: [
    '431 Request Header Fields Too Large',
    `The request line and headers are over ${maxHeaderSize} bytes`,
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
 * How long such a server waits for a request, where Node's defaults (the head within 60 s, the
 * whole request within 300 s, checked every 30 s) let a client that sends a header now and
 * then hold a connection for minutes: the head within 10 s of the connection opening (a
 * browser sends it at once), the whole request within 30 s (its bodies are a few KB), checked
 * every second. A request too slow gets the 408 below. The answer is not bounded: a slow
 * route, a server-sent events stream, a long download take what they take.
 */
export const REQUEST_TIMEOUTS = {
  headersTimeout: 10_000,
  requestTimeout: 30_000,
  connectionsCheckingInterval: 1_000,
} as const;

/** `requestId` names each answer in `X-Request-Id`, as every other answer of the server is named. */
export function answerClientErrors(
  server: Server,
  errorBody: ErrorBody,
  requestId?: () => string,
): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    // As Node does: nothing is written once an answer on this connection has begun.
    const answering = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (!socket.writable || answering?.headersSent) {
      socket.destroy();
      return;
    }
    const [status, message, field] = REFUSALS[error.code ?? ''] ?? NOT_HTTP;
    const body = JSON.stringify(errorBody('MALFORMED_REQUEST', message, field));
    const id = requestId === undefined ? '' : `x-request-id: ${requestId()}\r\n`;
    socket.end(
      `HTTP/1.1 ${status}\r\n${id}content-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
    );
  });
}
