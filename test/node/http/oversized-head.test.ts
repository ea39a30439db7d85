// A request Node refuses before any listener sees it (a 60 KB path: a request line and
// headers over Node's limit; a malformed header or chunked body; bytes that are not HTTP)
// gets, from the servers this project starts (the sandbox and the demo), their JSON error
// naming the part at fault, as every other refusal of theirs does: not Node's bare 431, 413
// or 400 with an empty body.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { type ServerExample, startServerExample } from '../../../server-example/index.ts';
import { createSandbox, type Sandbox } from '../../../src/sandbox/index.ts';
import { parseResponse, rawExchange, requestBytes } from '../support/raw-http.ts';

let sandbox: Sandbox;
let shop: ServerExample;
before(async () => {
  sandbox = await createSandbox({ port: 0 });
  shop = await startServerExample({
    providerBaseUrl: sandbox.url,
    providerApiKey: sandbox.apiKey,
    merchantCode: sandbox.merchantCode,
    port: 0,
  });
});
after(async () => {
  await shop?.close();
  await sandbox?.close();
});

const fieldOf = (body: Record<string, { field?: string } | string | undefined>) =>
  typeof body.error === 'object' ? body.error.field : body.param;

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
}
