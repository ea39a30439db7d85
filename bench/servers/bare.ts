// Child process: the floor to compare with, a bare node:http server that answers every
// request with one small JSON object (about the size of a checkout). Prints one JSON line;
// exits when its parent's pipe closes.
import { createServer } from 'node:http';
import { listenOnLoopback, serveForParent } from './child.ts';

const body = JSON.stringify({
  id: '4e425463-3e1b-431d-83fa-1e51c2925e99',
  checkout_reference: 'bench-reference',
  amount: 10,
  currency: 'EUR',
  merchant_code: 'MSANDBOX1',
  description: 'bench',
  status: 'PENDING',
  date: '2026-01-01T00:00:00.000Z',
  transactions: [],
});

const server = createServer((_req, res) => {
  res.writeHead(200, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
  });
  res.end(body);
});
serveForParent(server, { url: await listenOnLoopback(server) });
