// Child process: the least any proxy in front of the sandbox does, to compare the handler
// with. A bare node:http server that sends each request's path to the sandbox named by
// BENCH_SANDBOX through the handler's own keep-alive pool (src/server/provider/exchange.ts), and
// writes the answer back as it came: no routing, no origin policy, no parsing or check of
// the answer. What the handler costs beyond it is its own work; what this costs beyond the
// sandbox is the second HTTP hop. Prints one JSON line; exits when its parent's pipe closes.
// BENCH_TELEMETRY=sdk: the Node SDK with the official http and undici instrumentations, as
// ./otel.ts says; the anchor the handler's own telemetry is measured beside.
import { createServer } from 'node:http';
import { poolExchange } from '../../src/server/provider/exchange.ts';
import type { SandboxInfo } from '../http.ts';
import { listenOnLoopback, serveForParent } from './child.ts';
import { proxyTelemetry } from './otel.ts';

await proxyTelemetry(process.env.BENCH_TELEMETRY);
const sandbox = JSON.parse(process.env.BENCH_SANDBOX ?? '{}') as SandboxInfo;
const exchange = poolExchange(new URL(sandbox.url).origin);
const headers = { authorization: `Bearer ${sandbox.apiKey}`, accept: 'application/json' };

const server = createServer((req, res) => {
  exchange({ method: 'GET', path: req.url ?? '/', headers, body: undefined }, 10_000).then(
    (answer) => {
      res.writeHead(answer.status, {
        'content-type': 'application/json; charset=utf-8',
        'content-length': Buffer.byteLength(answer.text),
      });
      res.end(answer.text);
    },
    () => {
      res.writeHead(502, { 'content-length': 0 });
      res.end();
    },
  );
});
serveForParent(server, { url: await listenOnLoopback(server) });
