/**
 * The answers the Node listener (node.ts) writes itself, before or instead of the handler's:
 * a head Node would refuse, a CONNECT, and the `X-Request-Id` every one of them carries.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { REQUEST_ID_HEADER, requestIdFrom } from '../shared/request-id.ts';

// Node's own test of an Expect it meets (`continueExpression` in its http server).
const CONTINUE = /(?:^|\W)100-continue(?:$|\W)/i;

/**
 * What Node answers itself, bare, before any listener runs, unless the server lets it through:
 * an HTTP/1.1 request without Host (a server made with `requireHostHeader: false`) and an
 * Expect other than 100-continue (a server passing its `checkExpectation` event here). Refused
 * with Node's status, never routed: the status, what is wrong, and the header at fault.
 */
export function refusedHead(req: IncomingMessage): [number, string, string] | undefined {
  if (req.httpVersionMajor !== 1 || req.httpVersionMinor !== 1) return undefined;
  if (req.headers.host === undefined)
    return [400, 'An HTTP/1.1 request needs a Host header', 'host'];
  const { expect } = req.headers;
  if (expect !== undefined && !CONTINUE.test(expect)) {
    return [417, 'Expect can only be 100-continue', 'expect'];
  }
  return undefined;
}

/**
 * The `X-Request-Id` of an answer the listener writes itself, as the handler names its own:
 * the one the server already set (the sandbox sets one on every answer), else the caller's
 * when it is a short token, else a new one.
 */
export function requestIdOf(req: IncomingMessage, res?: ServerResponse): string {
  const set = res?.getHeader(REQUEST_ID_HEADER);
  if (typeof set === 'string') return set;
  const id = req.headers[REQUEST_ID_HEADER];
  return requestIdFrom(typeof id === 'string' ? id : undefined);
}

/**
 * A CONNECT (the server's `connect` event: the request, its socket): 405 in JSON with an empty
 * Allow (a tunnel is not served, whatever the method), then the socket is let go. What the
 * client sends after it is read and dropped, so that closing does not reset the connection
 * before the client has read the answer; a client that never closes is dropped after 10 s.
 * It carries `X-Request-Id` (the client's own when it is a short token, else a new one), which
 * a server cannot set on a bare socket: the sandbox names every answer so.
 */
export function refuseTunnel(
  req: IncomingMessage,
  socket: Duplex,
  errorBody: (code: 'METHOD_NOT_ALLOWED', message: string, field: string) => unknown,
): void {
  const body = JSON.stringify(
    errorBody('METHOD_NOT_ALLOWED', 'CONNECT is not allowed: this server is not a proxy', 'method'),
  );
  socket.on('error', () => socket.destroy());
  (socket as Socket).setTimeout(10_000, () => socket.destroy());
  socket.resume();
  socket.end(
    `HTTP/1.1 405 Method Not Allowed\r\n${REQUEST_ID_HEADER}: ${requestIdOf(req)}\r\nallow: \r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}
