// node:http at the edge: IncomingMessage -> Request, Response -> ServerResponse. A Response
// of type "error" (an injected `drop` fault) destroys the socket without an answer.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { BODY_LIMIT } from './http.ts';

/** The adapter buffers at most this much; the app's own cap (BODY_LIMIT) answers 413 below it. */
const SOCKET_LIMIT = BODY_LIMIT * 4;

async function readBody(req: IncomingMessage): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buf = chunk as Buffer;
    size += buf.length;
    if (size > SOCKET_LIMIT) return null;
    chunks.push(buf);
  }
  return Buffer.concat(chunks);
}

export function toNodeListener(
  handle: (request: Request) => Promise<Response>,
  fallbackHost: string,
) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    try {
      const method = req.method ?? 'GET';
      const body = method === 'GET' || method === 'HEAD' ? undefined : await readBody(req);
      if (body === null) {
        res.writeHead(413, {
          'content-type': 'application/json; charset=utf-8',
          connection: 'close',
        });
        res.end(
          JSON.stringify({ error_code: 'PAYLOAD_TOO_LARGE', message: 'Request body is too large' }),
        );
        return;
      }
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers)) {
        if (v === undefined) continue;
        for (const value of Array.isArray(v) ? v : [v]) headers.append(k, value);
      }
      const host = req.headers.host ?? fallbackHost;
      const request = new Request(`http://${host}${req.url ?? '/'}`, {
        method,
        headers,
        ...(body !== undefined && body.length > 0 && { body: new Uint8Array(body) }),
      });
      const response = await handle(request);
      if (response.type === 'error') {
        req.socket.destroy();
        return;
      }
      const out: Record<string, string> = {};
      response.headers.forEach((value, key) => {
        out[key] = value;
      });
      const payload = Buffer.from(await response.arrayBuffer());
      res.writeHead(response.status, out);
      res.end(method === 'HEAD' ? undefined : payload);
    } catch {
      // A malformed URL or a client that vanished mid-request: answer if still possible.
      if (!res.headersSent) {
        res.writeHead(400, { 'content-type': 'application/json; charset=utf-8' });
        res.end(JSON.stringify({ error_code: 'INVALID', message: 'Malformed request' }));
      } else {
        res.destroy();
      }
    }
  };
}
