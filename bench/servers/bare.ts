// Child process: the floor to compare with, a bare node:http server that answers every
// request with one small JSON object (about the size of a checkout). Prints one JSON line;
// exits when its parent's pipe closes.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

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
server.keepAliveTimeout = 30_000;
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const { port } = server.address() as AddressInfo;
process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${port}` })}\n`);
process.stdin.resume();
process.stdin.on('end', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
