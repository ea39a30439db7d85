/**
 * The node:http adapter: the handler itself only speaks Web Request/Response.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';

export type FetchHandler = (request: Request) => Promise<Response>;

/**
 * The request body as a Web stream that, when the handler cancels it (the body
 * cap was hit), discards the rest instead of destroying the socket: the client
 * must still receive the 413.
 */
function bodyStream(req: IncomingMessage): ReadableStream<Uint8Array> {
  let closed = false;
  let onData: ((chunk: Buffer) => void) | undefined;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      onData = (chunk: Buffer) => {
        if (closed) return;
        controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        if ((controller.desiredSize ?? 0) <= 0) req.pause();
      };
      req.on('data', onData);
      req.once('end', () => {
        if (closed) return;
        closed = true;
        controller.close();
      });
      req.once('error', (error) => {
        if (closed) return;
        closed = true;
        controller.error(error);
      });
    },
    pull() {
      req.resume();
    },
    cancel() {
      closed = true;
      req.resume();
    },
  });
}

function toRequest(req: IncomingMessage): Request {
  // The Host header only locates the route; the handler builds the URLs it
  // hands out from its configured publicUrl, never from this.
  const host = req.headers.host ?? 'localhost';
  const url = new URL(req.url ?? '/', `http://${host}`);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else headers.set(name, value);
  }
  const method = req.method ?? 'GET';
  const hasBody = method !== 'GET' && method !== 'HEAD';
  const controller = new AbortController();
  req.once('close', () => {
    if (!req.complete) controller.abort();
  });
  return new Request(url, {
    method,
    headers,
    signal: controller.signal,
    ...(hasBody ? { body: bodyStream(req), duplex: 'half' } : {}),
  } as RequestInit);
}

/**
 * Adapts a `(request: Request) => Promise<Response>` handler to node:http:
 * `http.createServer(toNodeListener(handler)).listen(3000, '127.0.0.1')`.
 */
export function toNodeListener(
  handler: FetchHandler,
): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    void (async () => {
      let response: Response;
      try {
        response = await handler(toRequest(req));
      } catch {
        response = new Response(
          JSON.stringify({ error: { code: 'INTERNAL', message: 'Internal error' } }),
          { status: 500, headers: { 'content-type': 'application/json; charset=utf-8' } },
        );
      }
      const headers: Record<string, string | string[]> = {};
      response.headers.forEach((value, name) => {
        if (name === 'set-cookie') return;
        headers[name] = value;
      });
      const cookies = response.headers.getSetCookie();
      if (cookies.length > 0) headers['set-cookie'] = cookies;
      res.writeHead(response.status, headers);
      if (response.body === null || req.method === 'HEAD') {
        res.end();
        return;
      }
      Readable.fromWeb(response.body as import('node:stream/web').ReadableStream).pipe(res);
    })();
  };
}
