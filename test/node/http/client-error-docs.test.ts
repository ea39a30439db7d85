// docs/server.md, under toNodeListener: what Node's parser refuses (a header name with a space,
// two Content-Lengths, a head over 16 KiB) never reaches a merchant's own
// `createServer(toNodeListener(payments))`, which Node answers with a bare 400 or 431; the
// server's clientError event, as the demo's `answerClientErrors` listens to it, answers in the
// handler's JSON shape with Connection: close, and the server goes on answering.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { answerClientErrors } from '../../../server-example/http.ts';
import type { Sandbox } from '../../../src/sandbox/index.ts';
import { toNodeListener } from '../../../src/server/index.ts';
import { makeHandler, startSandbox } from '../server/fixtures.ts';
import { parseResponse, rawExchange, requestBytes } from '../support/raw-http.ts';

const REFUSED = [
  ['a space in a header name', requestBytes('GET', '/payments/config', { 'x-a b': '1' }), 400],
  [
    'two Content-Lengths',
    'POST /payments/checkouts HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-length: 1\r\ncontent-length: 2\r\n\r\nab',
    400,
  ],
  ['a 60 KB path', requestBytes('GET', `/payments/${'a'.repeat(60_000)}`), 431],
] as const;

let sb: Sandbox;
const servers: Server[] = [];

/** The merchant's server: `createServer(toNodeListener(payments))`, on a free loopback port. */
async function merchantServer(): Promise<{ server: Server; url: string }> {
  const server = createServer(toNodeListener(makeHandler(sb).handle));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

before(async () => {
  sb = await startSandbox();
});

after(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  await sb?.close();
});

test('without a clientError listener, Node answers what its parser refuses bare: no body', async () => {
  const { url } = await merchantServer();
  for (const [what, bytes, status] of REFUSED) {
    const res = parseResponse(await rawExchange(url, bytes));
    assert.equal(res?.status, status, what);
    assert.equal(res?.header('content-type'), undefined, what);
    assert.equal(res?.body, '', what);
  }
});

test('with one (the demo’s answerClientErrors), each is the handler’s JSON error, and the next request is served', async () => {
  const { server, url } = await merchantServer();
  answerClientErrors(server);
  for (const [what, bytes, status] of REFUSED) {
    const res = parseResponse(await rawExchange(url, bytes));
    assert.equal(res?.status, status, `${what}: ${res?.status} ${res?.body}`);
    assert.equal(res?.header('connection'), 'close', what);
    assert.match(res?.header('content-type') ?? '', /^application\/json/, what);
    const { error } = JSON.parse(res?.body ?? '') as { error: Record<string, unknown> };
    assert.equal(error.code, 'MALFORMED_REQUEST', what);
    assert.equal(error.retryable, false, what);
    assert.equal(typeof error.message, 'string', what);
  }
  const res = await fetch(`${url}/payments/nope`);
  assert.equal(res.status, 404);
  assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'NOT_FOUND');
});
