// docs/server.md, under toNodeListener: what Node's parser refuses (a header name with a space,
// two Content-Lengths, a head over 16 KiB) never reaches a merchant's own
// `createServer(toNodeListener(payments))`, which Node answers with a bare 400 or 431; the
// server's clientError event, as the demo's `answerClientErrors` listens to it, answers in the
// handler's JSON shape with Connection: close, and the server goes on answering. What Node
// refuses once parsed (no Host in HTTP/1.1, an Expect other than 100-continue: a bare 400 or
// 417) reaches the listener when the server is made as the page shows, and it answers in JSON;
// so does a CONNECT, which Node hangs up on (405, naming the method).
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

/** What Node refuses once it has parsed the request: no Host in HTTP/1.1, an Expect it cannot meet. */
const PARSED = [
  ['no Host', 'GET /payments/checkouts/c1 HTTP/1.1\r\nconnection: close\r\n\r\n', 400, 'host'],
  ['Expect', requestBytes('GET', '/payments/checkouts/c1', { expect: 'a-snack' }), 417, 'expect'],
] as const;
const TUNNEL = 'CONNECT 127.0.0.1:443 HTTP/1.1\r\nhost: 127.0.0.1:443\r\n\r\n';

let calls = 0;

/**
 * The merchant's server: `createServer(toNodeListener(payments))`, on a free loopback port;
 * `asDocsTeach`, made as docs/server.md shows, to let through what Node refuses after parsing.
 */
async function merchantServer(asDocsTeach = false): Promise<{ server: Server; url: string }> {
  const { handle } = makeHandler(sb);
  const listener = toNodeListener((request) => {
    calls += 1;
    return handle(request);
  });
  const server = createServer({ requireHostHeader: !asDocsTeach }, listener);
  if (asDocsTeach) {
    server.on('checkExpectation', listener);
    server.on('connect', listener);
  }
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

test('Node answers a request without Host, or with an Expect other than 100-continue, bare', async () => {
  const { server, url } = await merchantServer();
  answerClientErrors(server);
  for (const [what, bytes, status] of PARSED) {
    const res = parseResponse(await rawExchange(url, bytes));
    assert.equal(res?.status, status, what);
    assert.equal(res?.body, '', what);
  }
  // And hangs up on a CONNECT: no answer at all.
  assert.equal(await rawExchange(url, TUNNEL), '');
});

test('made as docs/server.md shows, the listener answers them: JSON naming host or expect, never the handler', async () => {
  const { server, url } = await merchantServer(true);
  answerClientErrors(server);
  calls = 0;
  for (const [what, bytes, status, field] of PARSED) {
    const res = parseResponse(await rawExchange(url, bytes));
    assert.equal(res?.status, status, `${what}: ${res?.status} ${res?.body}`);
    assert.equal(res?.header('connection'), 'close', what);
    assert.match(res?.header('content-type') ?? '', /^application\/json/, what);
    const { error } = JSON.parse(res?.body ?? '') as { error: Record<string, unknown> };
    assert.deepEqual(
      [error.code, error.field, error.retryable],
      ['MALFORMED_REQUEST', field, false],
      what,
    );
  }
  const tunnel = parseResponse(await rawExchange(url, TUNNEL));
  assert.equal(tunnel?.status, 405);
  assert.equal(tunnel?.header('allow'), '');
  const { error } = JSON.parse(tunnel?.body ?? '') as { error: Record<string, unknown> };
  assert.deepEqual([error.code, error.field], ['METHOD_NOT_ALLOWED', 'method']);
  assert.equal(calls, 0);
  // An HTTP/1.0 request without Host is refused as before; one with Host reaches the handler.
  const old = parseResponse(await rawExchange(url, 'GET /payments/checkouts/c1 HTTP/1.0\r\n\r\n'));
  assert.equal(old?.status, 400);
  assert.equal((await fetch(`${url}/payments/nope`)).status, 404);
  assert.equal(calls, 1);
});
