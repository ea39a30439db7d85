// A client that opens a connection to a server this project starts (the sandbox, the demo) and
// sends its request a header now and then, or nothing at all, is cut off once the server's
// REQUEST_TIMEOUTS allow no more: answered 408 in JSON naming `request`, and the connection
// closed. On Node's defaults it held the connection for minutes (the head within 60 s, the
// whole request within 300 s, checked every 30 s). A request slow-ish but within them, its head
// and its body in pieces a second apart, is answered as usual.
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { REQUEST_TIMEOUTS as DEMO_TIMEOUTS } from '../../../server-example/http.ts';
import type { ServerExample } from '../../../server-example/index.ts';
import { REQUEST_TIMEOUTS as SANDBOX_TIMEOUTS } from '../../../src/http/client-errors.ts';
import type { Sandbox } from '../../../src/sandbox/index.ts';
import { REQUEST_ID_PATTERN } from '../../../src/shared/request-id.ts';
import { scaled } from '../../shared/until.ts';
import { parseResponse } from '../support/raw-http.ts';
import { type SandboxAndShop, startSandboxAndShop } from '../support/sandbox-and-shop.ts';

interface Exchange {
  /** What came back, latin1. */
  answer: string;
  /** From the connection's opening to its close. */
  ms: number;
}

/**
 * Opens a connection and writes `pieces`, one every `gapMs` (the first at once), as a slow
 * client does, stopping when the connection closes. Resolves on its close event; a server
 * that has not closed it by `giveUpMs` is hung up on, so that a test of it ends.
 */
function trickle(
  url: string,
  pieces: readonly string[],
  gapMs: number,
  giveUpMs: number,
): Promise<Exchange> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    let answer = '';
    let opened = performance.now();
    let next = 0;
    let timer: NodeJS.Timeout | undefined;
    const giveUp = setTimeout(() => socket.destroy(), giveUpMs);
    const write = () => {
      if (next >= pieces.length || socket.destroyed) return;
      socket.write(pieces[next++]!);
      timer = setTimeout(write, gapMs);
    };
    socket.on('connect', () => {
      opened = performance.now();
      write();
    });
    socket.on('data', (chunk) => {
      answer += chunk.toString('latin1');
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(timer);
      clearTimeout(giveUp);
      resolve({ answer, ms: performance.now() - opened });
    });
  });
}

/** A head that never ends: the request line, then a header at a time. */
const neverEnding = (host: string) => [
  `GET / HTTP/1.1\r\nhost: ${host}\r\n`,
  ...Array.from({ length: 30 }, (_, i) => `x-slow-${i}: 1\r\n`),
];

/** The head split where a slow network would split it; `connection: close` ends the exchange. */
function inPieces(head: string): string[] {
  const lines = head.split(/(?<=\r\n)/);
  return [lines.slice(0, 2).join(''), lines.slice(2, -1).join(''), lines.at(-1)!];
}

describe('slow clients', { concurrency: true }, () => {
  let servers: SandboxAndShop;
  let sandbox: Sandbox;
  let shop: ServerExample;
  before(async () => {
    servers = await startSandboxAndShop({ reconcileIntervalMs: 0 });
    ({ sandbox, shop } = servers);
  });
  after(() => servers?.close());

  for (const [name, url, timeouts] of [
    ['the sandbox', () => sandbox.url, SANDBOX_TIMEOUTS],
    ['the demo', () => shop.url, DEMO_TIMEOUTS],
  ] as const) {
    test(`${name}: a head sent a header every 2 s, or nothing sent, is cut off with a 408 in JSON once the head is over its time`, async () => {
      const { host } = new URL(url());
      // Node notices on its next check of the connections: within one interval of the limit.
      const latest = timeouts.headersTimeout + timeouts.connectionsCheckingInterval + scaled(2_000);
      const cut = await Promise.all([
        trickle(url(), neverEnding(host), 2_000, latest + 1_000),
        trickle(url(), [], 0, latest + 1_000),
      ]);
      for (const { answer, ms } of cut) {
        const res = parseResponse(answer);
        assert.equal(res?.status, 408, JSON.stringify(answer.slice(0, 200)));
        assert.equal(res?.header('connection'), 'close');
        const body = JSON.parse(res?.body ?? '') as {
          param?: string;
          error?: { field?: string };
        };
        assert.equal(body.param ?? body.error?.field, 'request');
        if (name === 'the sandbox')
          assert.match(res?.header('x-request-id') ?? '', REQUEST_ID_PATTERN);
        assert.ok(ms >= timeouts.headersTimeout - 100, `cut off after ${ms} ms: too early`);
        assert.ok(ms <= latest, `cut off after ${ms} ms, not within ${latest} ms`);
      }
    });
  }

  test('the sandbox: a payment posted slow-ish (head and body in pieces a second apart) is answered', async () => {
    const body = JSON.stringify({
      checkout_reference: `slow-${Date.now()}`,
      amount: 10,
      currency: 'EUR',
      merchant_code: sandbox.merchantCode,
    });
    const { host } = new URL(sandbox.url);
    const head = `POST /v0.1/checkouts HTTP/1.1\r\nhost: ${host}\r\nauthorization: Bearer ${sandbox.apiKey}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n`;
    const half = Math.floor(body.length / 2);
    const { answer, ms } = await trickle(
      sandbox.url,
      [...inPieces(head), body.slice(0, half), body.slice(half)],
      1_000,
      scaled(20_000),
    );
    assert.ok(ms >= 4_000, `the exchange took ${ms} ms: not slow`);
    const res = parseResponse(answer);
    assert.equal(res?.status, 201, JSON.stringify(answer.slice(0, 300)));
    assert.equal((JSON.parse(res?.body ?? '') as { status: string }).status, 'PENDING');
  });

  test('the demo: its shop page asked for slow-ish (the head in pieces a second apart) is answered', async () => {
    const { host } = new URL(shop.url);
    const head = `GET / HTTP/1.1\r\nhost: ${host}\r\naccept: text/html\r\nconnection: close\r\n\r\n`;
    const { answer, ms } = await trickle(shop.url, inPieces(head), 1_000, scaled(20_000));
    assert.ok(ms >= 2_000, `the exchange took ${ms} ms: not slow`);
    const res = parseResponse(answer);
    assert.equal(res?.status, 200, JSON.stringify(answer.slice(0, 300)));
    assert.match(res?.body ?? '', /<payment-widget/);
  });
});
