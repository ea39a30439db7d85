// Child process: the bare proxy's work (./proxy.ts) behind the handler's own edge, to split the
// handler's cost beyond a bare proxy into the edge's and its own: toNodeListener
// (@hono/node-server) and one Hono route that passes the GET to the sandbox named by
// BENCH_SANDBOX through the handler's keep-alive pool and answers its text as it came. No
// middleware, no check of the answer. Prints one JSON line; exits when its parent's pipe closes.
import { createServer } from 'node:http';
import { Hono } from 'hono';
import { toNodeListener } from '../../src/server/index.ts';
import { poolExchange } from '../../src/server/provider/exchange.ts';
import type { SandboxInfo } from '../http.ts';
import { listenOnLoopback, serveForParent } from './child.ts';

const sandbox = JSON.parse(process.env.BENCH_SANDBOX ?? '{}') as SandboxInfo;
const exchange = poolExchange(new URL(sandbox.url).origin);
const headers = { authorization: `Bearer ${sandbox.apiKey}`, accept: 'application/json' };
const app = new Hono();
app.get('/payments/checkouts/:id', async (c) => {
  const path = `/v0.1/checkouts/${encodeURIComponent(c.req.param('id'))}`;
  const answer = await exchange({ method: 'GET', path, headers, body: undefined }, 10_000);
  return new Response(answer.text, {
    status: answer.status,
    headers: { 'content-type': 'application/json; charset=utf-8' },
  });
});
let listener: ReturnType<typeof toNodeListener> | undefined;
const server = createServer((req, res) => listener?.(req, res));
const url = await listenOnLoopback(server);
listener = toNodeListener((request) => app.fetch(request));
serveForParent(server, { url: `${url}/payments` });
