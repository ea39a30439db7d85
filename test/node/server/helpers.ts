// A tiny scripted HTTP server on a random loopback port, for client tests
// that need answers the sandbox cannot give (hangs, 5xx, malformed bodies).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { listenLoopback } from '../support/loopback.ts';

export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface ScriptedServer {
  url: string;
  seen: SeenRequest[];
  close(): Promise<void>;
}

export async function startScriptedServer(
  reply: (req: SeenRequest, res: ServerResponse) => void,
): Promise<ScriptedServer> {
  const seen: SeenRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const entry = {
        method: req.method ?? 'GET',
        url: req.url ?? '/',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      seen.push(entry);
      reply(entry, res);
    });
  });
  const { url, close } = await listenLoopback(server);
  return { url, seen, close };
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}
