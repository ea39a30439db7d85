// What toNodeListener answers itself once Node has parsed a request and handed it on, apart
// from node-refusals.test.ts's (no Host, an Expect, a CONNECT) and the body a framework lost
// (body-parsers.test.ts): a request line or Host it cannot make a URL of (@hono/node-server's
// RequestError) is a 400, a handler that throws a 500, each the JSON error with an
// X-Request-Id, the caller's own when it sent a short token, as every answer of the handler.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { after, before, mock, test } from 'node:test';
import { toNodeListener } from '../../../src/server/index.ts';
import { REQUEST_ID_PATTERN } from '../../../src/shared/request-id.ts';
import { type Listening, listenLoopback } from '../support/loopback.ts';
import { parseResponse, rawExchange } from '../support/raw-http.ts';

let server: Listening;
before(async () => {
  const handler = async (request: Request) => {
    const { pathname } = new URL(request.url);
    if (pathname === '/throws') throw new Error('the handler broke');
    if (pathname === '/throws-once') throw new Error('a wrapper of the handler broke');
    return new Response('ok', { headers: { 'content-type': 'text/plain' } });
  };
  server = await listenLoopback(createServer(toNodeListener(handler)));
});
after(() => server?.close());

/** A request line and headers as sent, closed after the answer. */
const head = (line: string, headers: string) => `${line}\r\n${headers}connection: close\r\n\r\n`;

const cases = [
  ['an absolute URL with a broken host', head('GET http://[::1 HTTP/1.1', 'host: a\r\n'), 400],
  ['a scheme other than http', head('GET ftp://a/x HTTP/1.1', 'host: a\r\n'), 400],
  ['a backslash in the path', head('GET /x\\y?a HTTP/1.1', 'host: a\r\n'), 400],
  ['a Host with a space', head('GET /x HTTP/1.1', 'host: a b\r\n'), 400],
  ['an HTTP/1.0 request without Host', head('GET /x HTTP/1.0', ''), 400],
  ['a handler that throws', head('GET /throws HTTP/1.1', 'host: a\r\n'), 500],
] as const;

for (const [what, bytes, status] of cases) {
  test(`${what}: ${status} in JSON, with an X-Request-Id, the caller's own when it sent one`, async () => {
    const mine = `own-${Date.now().toString(36)}`;
    const named = bytes.replace('connection: close', `x-request-id: ${mine}\r\nconnection: close`);
    const ids: string[] = [];
    for (const sent of [bytes, named]) {
      const res = parseResponse(await rawExchange(server.url, sent));
      assert.equal(res?.status, status, `${what}: ${res?.status} ${res?.body}`);
      assert.match(res?.header('content-type') ?? '', /^application\/json/, what);
      const { error } = JSON.parse(res?.body ?? '') as { error: { code: string } };
      assert.equal(error.code, status === 400 ? 'MALFORMED_REQUEST' : 'INTERNAL', what);
      ids.push(res?.header('x-request-id') ?? '');
    }
    assert.match(ids[0] ?? '', REQUEST_ID_PATTERN, what);
    assert.equal(ids[1], mine, what);
  });
}

test("the handler's own answers are its own: no X-Request-Id added, before or after a refusal", async () => {
  for (const bytes of [
    head('GET /x HTTP/1.1', 'host: a\r\nx-request-id: mine\r\n'),
    head('GET http://[::1 HTTP/1.1', 'host: a\r\n'),
    head('GET /x HTTP/1.1', 'host: a\r\nx-request-id: mine\r\n'),
  ]) {
    const res = parseResponse(await rawExchange(server.url, bytes));
    if (res?.status === 400) continue;
    assert.equal(res?.status, 200, res?.body);
    assert.equal(res?.body, 'ok');
    assert.equal(res?.header('x-request-id'), undefined);
  }
});

test('a handler that throws is said on the console, with the id its 500 carries, once per error', async () => {
  const said = mock.method(console, 'error', () => {});
  try {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = parseResponse(
        await rawExchange(server.url, head('GET /throws-once HTTP/1.1', 'host: a\r\n')),
      );
      assert.equal(res?.status, 500);
      ids.push(res?.header('x-request-id') ?? '');
    }
    const lines = said.mock.calls.map((call) => call.arguments);
    assert.equal(lines.length, 1, 'three answers, one line');
    const [line, error] = lines[0] ?? [];
    assert.equal(line, `payment-widget: the handler threw (${ids[0]}):`);
    assert.equal((error as Error).message, 'a wrapper of the handler broke');
  } finally {
    said.mock.restore();
  }
});
