// Below fetch: bytes on a raw socket that no well-behaved client sends (broken chunking, a
// Content-Length that lies, a body cut off by a hang-up, a header flood). Both node adapters
// (the handler's and the sandbox's) must answer with a 4xx or close the connection, and the
// server must keep serving the next request: no crash, no 5xx.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { rawExchange } from '../support/raw-http.ts';
import { handlerTarget, ORIGIN, sandboxTarget, type Target } from './targets.ts';

let targets: Target[] = [];
before(async () => {
  targets = [await handlerTarget(), await sandboxTarget()];
});
after(async () => {
  for (const target of targets) await target.close();
});

function cases(path: string, auth: string): { name: string; bytes: string; hangUp?: boolean }[] {
  const head = (extra: string) =>
    `PUT ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: ${ORIGIN}\r\n${auth}Content-Type: application/json\r\n${extra}`;
  return [
    {
      name: 'a body shorter than its Content-Length',
      bytes: `${head('Content-Length: 100\r\n\r\n')}{"a":1}`,
    },
    {
      name: 'a body longer than its Content-Length',
      bytes: `${head('Content-Length: 2\r\n\r\n')}{"payment_type":"card"}`,
    },
    {
      name: 'broken chunk sizes',
      bytes: `${head('Transfer-Encoding: chunked\r\n\r\n')}zz\r\n{}\r\n0\r\n\r\n`,
    },
    {
      name: 'chunked and Content-Length at once',
      bytes: `${head('Transfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n')}2\r\n{}\r\n0\r\n\r\n`,
    },
    {
      name: 'a hang-up mid-body',
      bytes: `${head('Content-Length: 5000\r\n\r\n')}{"card":`,
      hangUp: true,
    },
    { name: 'a request line that is not HTTP', bytes: '\u0000\u0001GARBAGE / HTTP/9.9\r\n\r\n' },
    {
      name: 'a path with raw spaces and controls',
      bytes: 'GET /payments/che ckouts/\u0007 HTTP/1.1\r\nHost: x\r\n\r\n',
    },
    {
      name: 'a header flood',
      bytes: `GET ${path} HTTP/1.1\r\nHost: x\r\n${'X-Junk: aaaaaaaaaaaaaaaaaaaa\r\n'.repeat(4_000)}\r\n`,
    },
    {
      name: 'an absolute-form URL to another host',
      bytes: `GET http://evil.example${path} HTTP/1.1\r\nHost: evil.example\r\n\r\n`,
    },
    {
      name: 'a body of invalid UTF-8',
      bytes: `${head('Content-Length: 4\r\n\r\n')}\u00ff\u00fe\u00fd\u00fc`,
    },
  ];
}

test('malformed HTTP on a raw socket: 4xx or a closed connection, and the server lives on', async () => {
  for (const target of targets) {
    const path = target.name === 'handler' ? '/payments/checkouts/abc' : '/v0.1/checkouts/abc';
    const auth = target.name === 'sandbox' ? 'Authorization: Bearer sk_test_sandbox\r\n' : '';
    for (const { name, bytes, hangUp } of cases(path, auth)) {
      // Each request half-closes after its bytes, as a client with nothing more to send.
      const answer = await rawExchange(target.url, bytes, hangUp ? 'hang up' : 'end');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0);
      assert.ok(
        status === 0 || (status >= 400 && status < 500),
        `${target.name}, ${name}: ${answer.slice(0, 200)}`,
      );
      // The next ordinary request is served.
      const alive = await fetch(
        `${target.url}${target.name === 'handler' ? '/payments/payment-methods' : '/v0.1/checkouts'}`,
        {
          headers: { authorization: 'Bearer sk_test_sandbox' },
        },
      );
      assert.equal(alive.status, 200, `${target.name} stopped serving after ${name}`);
      await alive.body?.cancel();
    }
  }
});
