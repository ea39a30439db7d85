// A tiny scripted HTTP server on a random loopback port, for client tests
// that need answers the sandbox cannot give (hangs, 5xx, malformed bodies).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { after } from 'node:test';
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

/** `server(reply)` starts a scripted server that is closed when the test file ends. */
export function scriptedServers(): (
  reply: Parameters<typeof startScriptedServer>[0],
) => Promise<ScriptedServer> {
  const servers: ScriptedServer[] = [];
  after(async () => {
    await Promise.all(servers.map((s) => s.close()));
  });
  return async (reply) => {
    const s = await startScriptedServer(reply);
    servers.push(s);
    return s;
  };
}

/** A checkout as the provider answers it, for scripted replies. */
export function checkoutAnswer(status: string, extra: object = {}) {
  return {
    id: 'co_1',
    checkout_reference: 'ref-1',
    amount: 10,
    currency: 'EUR',
    merchant_code: 'MTEST',
    status,
    ...extra,
  };
}
