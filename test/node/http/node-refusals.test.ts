// A request Node refuses before any listener sees it (a 60 KB path: a request line and
// headers over Node's limit; a malformed header or chunked body; bytes that are not HTTP;
// once parsed, an HTTP/1.1 request without Host or an Expect other than 100-continue) gets,
// from the servers this project starts (the sandbox and the demo), their JSON error naming
// the part at fault, as every other refusal of theirs does: not Node's bare 431, 417, 413 or
// 400 with an empty body. A request without Host is never routed. A CONNECT, which Node hangs
// up on unanswered unless the server takes it, is a 405 naming the method, with an X-Request-Id.
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, test } from 'node:test';
import type { ServerExample } from '../../../server-example/index.ts';
import type { Sandbox } from '../../../src/sandbox/index.ts';
import { REQUEST_ID_PATTERN } from '../../../src/shared/request-id.ts';
import { parseResponse, rawExchange, requestBytes } from '../support/raw-http.ts';
import { type SandboxAndShop, startSandboxAndShop } from '../support/sandbox-and-shop.ts';

let servers: SandboxAndShop;
let sandbox: Sandbox;
let shop: ServerExample;
before(async () => {
  servers = await startSandboxAndShop();
  ({ sandbox, shop } = servers);
});
after(() => servers?.close());

const fieldOf = (body: Record<string, { field?: string } | string | undefined>) =>
  typeof body.error === 'object' ? body.error.field : body.param;
const codeOf = (body: Record<string, { code?: string } | string | undefined>) =>
  typeof body.error === 'object' ? body.error.code : body.error_code;

for (const [name, url] of [
  ['the sandbox', () => sandbox.url],
  ['the demo', () => shop.url],
] as const) {
  test(`${name}: a 60 KB path is a 431 JSON naming headers; bytes that are not HTTP, a 400 naming request`, async () => {
    const cases = [
      [requestBytes('GET', `/${'a'.repeat(60_000)}`), 431, 'headers'],
      ['HELLO\r\n\r\n', 400, 'request'],
    ] as const;
    for (const [bytes, status, field] of cases) {
      const res = parseResponse(await rawExchange(url(), bytes));
      assert.equal(res?.status, status, String(res?.body));
      assert.match(res?.header('content-type') ?? '', /^application\/json/);
      assert.equal(fieldOf(JSON.parse(res?.body ?? '')), field);
    }
    // And it serves the next request.
    assert.equal((await fetch(`${url()}/sandbox/nope-${Date.now()}`)).status, 404);
  });

  test(`${name}: a malformed header is a 400 JSON naming headers, a malformed chunked body one naming body`, async () => {
    const post = (headers: string, body: string) =>
      `POST /checkouts HTTP/1.1\r\nhost: 127.0.0.1\r\nconnection: close\r\n${headers}\r\n${body}`;
    const chunked = 'transfer-encoding: chunked\r\n';
    const cases = [
      ['a space in a name', requestBytes('GET', '/', { 'x-a b': '1' }), 400, 'headers'],
      ['a control character', requestBytes('GET', '/', { 'x-a': 'a\x01b' }), 400, 'headers'],
      ['two lengths', post('content-length: 1\r\ncontent-length: 2\r\n', 'ab'), 400, 'headers'],
      ['a length and chunks', post(`content-length: 5\r\n${chunked}`, '0\r\n\r\n'), 400, 'headers'],
      ['a chunk size', post(chunked, 'zz\r\nab\r\n0\r\n\r\n'), 400, 'body'],
      [
        'a chunk extension',
        post(chunked, `1;${'x'.repeat(20_000)}\r\na\r\n0\r\n\r\n`),
        413,
        'body',
      ],
    ] as const;
    for (const [what, bytes, status, field] of cases) {
      const res = parseResponse(await rawExchange(url(), bytes));
      assert.equal(res?.status, status, `${what}: ${res?.status} ${res?.body}`);
      assert.equal(res?.header('connection'), 'close', what);
      assert.equal(fieldOf(JSON.parse(res?.body ?? '')), field, what);
    }
  });

  test(`${name}: an HTTP/1.1 request without Host is a 400 JSON naming host; an Expect other than 100-continue, a 417 naming expect; each with an X-Request-Id`, async () => {
    const mine = `refused-${Date.now().toString(36)}`;
    const cases = [
      ['no Host', 'GET / HTTP/1.1\r\nconnection: close\r\n\r\n', 400, 'host', undefined],
      ['Expect', requestBytes('GET', '/', { expect: 'a-snack' }), 417, 'expect', undefined],
      [
        'Expect, named',
        requestBytes('GET', '/', { expect: 'a-snack', 'x-request-id': mine }),
        417,
        'expect',
        mine,
      ],
    ] as const;
    for (const [what, bytes, status, field, id] of cases) {
      const res = parseResponse(await rawExchange(url(), bytes));
      assert.equal(res?.status, status, `${what}: ${res?.status} ${res?.body}`);
      assert.equal(res?.header('connection'), 'close', what);
      assert.match(res?.header('content-type') ?? '', /^application\/json/, what);
      assert.equal(fieldOf(JSON.parse(res?.body ?? '')), field, what);
      // Named as every other answer is: the caller's own id when it sent one.
      const named = res?.header('x-request-id') ?? '';
      if (id) assert.equal(named, id, what);
      else assert.match(named, REQUEST_ID_PATTERN, what);
    }
    // Expect: 100-continue is still met.
    const answer = await rawExchange(url(), requestBytes('GET', '/', { expect: '100-continue' }));
    assert.match(answer, /^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 [24]0\d /);
  });

  test(`${name}: a CONNECT is a 405 JSON naming method, with an empty Allow, tunnel bytes after it or not; one reset at once leaves it serving`, async () => {
    const { host, hostname, port } = new URL(url());
    const head = `CONNECT ${host} HTTP/1.1\r\nhost: ${host}\r\n\r\n`;
    const mine = `tunnel-${Date.now().toString(36)}`;
    const named = `CONNECT ${host} HTTP/1.1\r\nhost: ${host}\r\nx-request-id: ${mine}\r\n\r\n`;
    // What a proxy client sends next: a TLS hello, and more than a socket buffer holds.
    const hello = `\x16\x03\x01\x02\x00\x01${'x'.repeat(64 * 1024)}`;
    for (const bytes of [head, `${head}${hello}`, named]) {
      const answer = await rawExchange(url(), bytes);
      const res = parseResponse(answer);
      assert.equal(res?.status, 405, JSON.stringify(answer.slice(0, 200)));
      // Named as every other answer is (it had no X-Request-Id): the caller's own when it sent one.
      const id = res?.header('x-request-id') ?? '';
      if (bytes === named) assert.equal(id, mine);
      else assert.match(id, REQUEST_ID_PATTERN);
      assert.equal(res?.header('allow'), '');
      assert.equal(res?.header('connection'), 'close');
      assert.match(res?.header('content-type') ?? '', /^application\/json/);
      const body = JSON.parse(res?.body ?? '');
      assert.deepEqual([codeOf(body), fieldOf(body)], ['METHOD_NOT_ALLOWED', 'method']);
    }
    await new Promise<void>((resolve) => {
      const socket = connect(Number(port), hostname);
      socket.on('close', () => resolve());
      socket.on('error', () => {});
      // A reset while the server answers: its write fails (ECONNRESET or EPIPE).
      socket.write(head, () => socket.resetAndDestroy());
    });
    assert.equal((await fetch(`${url()}/sandbox/nope-${Date.now()}`)).status, 404);
  });
}

test('the sandbox routes neither: its request log never sees them', async () => {
  const head = (id: string, extra: string) =>
    `GET /v0.1/checkouts HTTP/1.1\r\nauthorization: Bearer ${sandbox.apiKey}\r\nx-request-id: ${id}\r\nconnection: close\r\n${extra}\r\n`;
  /** How many requests named `id` the sandbox's app routed. */
  const logged = async (id: string) => {
    const res = await fetch(`${sandbox.url}/sandbox/requests?request_id=${id}`, {
      headers: { authorization: `Bearer ${sandbox.apiKey}` },
    });
    return ((await res.json()) as unknown[]).length;
  };
  const stamp = Date.now().toString(36);
  const cases = [
    [`hostless-${stamp}`, '', 400],
    [`expects-${stamp}`, 'host: 127.0.0.1\r\nexpect: a-snack\r\n', 417],
  ] as const;
  for (const [id, extra, status] of cases) {
    const res = parseResponse(await rawExchange(sandbox.url, head(id, extra)));
    assert.equal(res?.status, status, id);
    // Named by the caller's id, as every answer of the sandbox is.
    assert.equal(res?.header('x-request-id'), id);
    assert.equal(await logged(id), 0, id);
  }
  // The same request with its Host is routed, and logged.
  const routed = `routed-${stamp}`;
  const res = parseResponse(await rawExchange(sandbox.url, head(routed, 'host: 127.0.0.1\r\n')));
  assert.equal(res?.status, 200);
  assert.equal(await logged(routed), 1);
});

test('the sandbox names its answers to what Node’s parser refuses with an X-Request-Id', async () => {
  for (const bytes of ['HELLO\r\n\r\n', requestBytes('GET', '/', { 'x-a b': '1' })]) {
    const res = parseResponse(await rawExchange(sandbox.url, bytes));
    assert.equal(res?.status, 400);
    assert.match(res?.header('x-request-id') ?? '', /^[A-Za-z0-9._:-]{1,64}$/);
  }
});
