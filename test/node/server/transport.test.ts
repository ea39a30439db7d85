// The provider transport below the client: keep-alive connections, the whole-attempt
// deadline, and what a Retry-After changes (and does not change) about retries.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { describe, test } from 'node:test';
import { createProviderClient, ProviderError } from '../../../src/server/index.ts';
import { MAX_RETRY_AFTER_MS, parseRetryAfter } from '../../../src/server/provider/transport.ts';
import { scaled } from '../../shared/until.ts';
import { cardBody } from '../support/cards.ts';
import { listenLoopback } from '../support/loopback.ts';
import { checkoutAnswer, scriptedServers, sendJson } from './helpers.ts';

const apiKey = 'sk_test_transport_secret';
const checkout = (status: string) => checkoutAnswer(status, { transactions: [] });

const server = scriptedServers();

describe('connections', () => {
  test('calls in a row reuse keep-alive connections', async () => {
    const raw = createServer((_req, res) => sendJson(res, 200, checkout('PENDING')));
    let connections = 0;
    raw.on('connection', () => {
      connections += 1;
    });
    const listening = await listenLoopback(raw);
    try {
      const client = createProviderClient({ baseUrl: listening.url, apiKey });
      for (let i = 0; i < 20; i += 1) await client.checkouts.get('co_1');
      // A call that starts while the last answer's end is still being read may open a second.
      assert.ok(connections <= 2, `${connections} connections for 20 calls`);
    } finally {
      await listening.close();
    }
  });

  test('an answer that trickles past timeoutMs fails as a timeout', async () => {
    const s = await server((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '500' });
      res.write('{"id":"co_1",'); // and nothing more
    });
    // Long enough for the headers to come first on a busy machine (a timer due when the
    // process gets the CPU back runs before the socket is read): the deadline then falls
    // while the body is read.
    const timeoutMs = scaled(1_000);
    const client = createProviderClient({ baseUrl: s.url, apiKey, timeoutMs, retries: 0 });
    const started = Date.now();
    await assert.rejects(client.checkouts.get('co_1'), (error: ProviderError) => {
      assert.equal(error.kind, 'timeout');
      assert.equal(error.status, 504);
      assert.match(error.message, /broke off/);
      return true;
    });
    const took = Date.now() - started;
    // A deadline that let the body trickle on would not end at all.
    assert.ok(took >= timeoutMs - 10 && took < timeoutMs + scaled(5_000), `took ${took} ms`);
  });
});

describe('Retry-After', () => {
  test('is read as seconds or as an HTTP date', () => {
    const now = Date.parse('2030-01-01T00:00:00Z');
    assert.equal(parseRetryAfter('3', now), 3000);
    assert.equal(parseRetryAfter(' 0 ', now), 0);
    assert.equal(parseRetryAfter('Tue, 01 Jan 2030 00:00:02 GMT', now), 2000);
    assert.equal(parseRetryAfter('Mon, 31 Dec 2029 23:00:00 GMT', now), 0);
    assert.equal(parseRetryAfter('soon', now), undefined);
    assert.equal(parseRetryAfter(undefined, now), undefined);
  });

  test('a GET answered 503 with Retry-After: 1 is retried no sooner than told', async () => {
    const at: number[] = [];
    const s = await server((_req, res) => {
      at.push(Date.now());
      if (at.length === 1) {
        res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '1' });
        res.end(JSON.stringify({ error_code: 'UNAVAILABLE', message: 'later' }));
      } else sendJson(res, 200, checkout('PAID'));
    });
    // A 5 ms backoff alone would come back at once.
    const client = createProviderClient({ baseUrl: s.url, apiKey, retryDelayMs: 5 });
    assert.equal((await client.checkouts.get('co_1')).status, 'PAID');
    assert.equal(at.length, 2);
    const waited = (at[1] ?? 0) - (at[0] ?? 0);
    assert.ok(waited >= 950, `retried after ${waited} ms`);
  });

  test('a 429 asking for longer than a shopper can wait is not retried; the wait is on the error', async () => {
    const s = await server((_req, res) => {
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '3600' });
      res.end(JSON.stringify({ error_code: 'TOO_MANY_REQUESTS', message: 'slow down' }));
    });
    const client = createProviderClient({ baseUrl: s.url, apiKey, retryDelayMs: 5 });
    await assert.rejects(client.checkouts.get('co_1'), (error: ProviderError) => {
      assert.ok(error instanceof ProviderError);
      assert.equal(error.status, 429);
      assert.equal(error.retryable, true);
      assert.equal(error.retryAfterMs, 3_600_000);
      return true;
    });
    assert.ok(3_600_000 > MAX_RETRY_AFTER_MS);
    assert.equal(s.seen.length, 1);
  });

  test('a PUT answered 503 with Retry-After: 0 is still not repeated, only read back', async () => {
    const s = await server((req, res) => {
      if (req.method === 'PUT') {
        res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '0' });
        res.end(JSON.stringify({ error_code: 'UNAVAILABLE', message: 'later' }));
      } else sendJson(res, 200, checkout('PENDING'));
    });
    const client = createProviderClient({ baseUrl: s.url, apiKey, retryDelayMs: 5 });
    await assert.rejects(
      client.checkouts.process('co_1', cardBody('4200000000000091')),
      (error: ProviderError) => error.retryable && /processing again is safe/.test(error.message),
    );
    assert.deepEqual(
      s.seen.map((r) => r.method),
      ['PUT', 'GET'],
    );
  });
});
