// How the provider calls leave the process: through undici's keep-alive pool where it
// works, through `fetch` where it does not load or does not work (Bun ships an `undici`
// whose Pool sends nothing), and never by sending a call twice to find out.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { Pool } from 'undici';
import {
  dispatchesLikeUndici,
  type ExchangeRequest,
  type LoadUndici,
  poolExchange,
} from '../../../src/server/provider/exchange.ts';
import { listenLoopback } from '../support/loopback.ts';
import { checkoutAnswer, scriptedServers, sendJson } from './helpers.ts';

const server = scriptedServers();

const put: ExchangeRequest = {
  method: 'PUT',
  path: '/v0.1/checkouts/co_1',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ payment_type: 'card' }),
};
const get: ExchangeRequest = {
  method: 'GET',
  path: '/v0.1/checkouts/co_1',
  headers: {},
  body: undefined,
};

/** Counts the calls that go through the global `fetch` during a test. */
let fetched = 0;
const realFetch = globalThis.fetch;
describe('how the provider calls leave the process', () => {
  beforeEach(() => {
    fetched = 0;
    globalThis.fetch = (input, init) => {
      fetched += 1;
      return realFetch(input, init);
    };
  });
  afterEach(() => {
    globalThis.fetch = realFetch;
  });

  /** A provider that answers every call with a checkout; `seen` lists what reached it. */
  const provider = () => server((_req, res) => sendJson(res, 200, checkoutAnswer('PAID')));

  /** Stand-ins for undici modules that load but cannot be used. */
  function undiciWith(Pool: new (origin: string) => object): LoadUndici {
    // Deliberately not undici's shape: that is what the exchange must notice.
    return async () => ({ Pool }) as unknown as Awaited<ReturnType<LoadUndici>>;
  }
  /** Bun's built-in `undici`: the class exists, `request()` resolves to nothing, no `dispatch`. */
  class PoolWithoutDispatch {
    async request() {}
  }
  /** A `dispatch` that takes the request and never calls the handler back. */
  class SilentPool {
    dispatch() {
      return true;
    }
  }

  describe('choosing how calls leave', () => {
    test('on Node, undici’s pool carries the calls (fetch is not used)', async () => {
      const s = await provider();
      const exchange = poolExchange(s.url);
      const answer = await exchange(put, 2_000);
      assert.equal(answer.status, 200);
      assert.equal((await exchange(get, 2_000)).status, 200);
      assert.equal(fetched, 0);
      assert.deepEqual(
        s.seen.map((r) => r.method),
        ['PUT', 'GET'],
      );
    });

    for (const [what, load] of [
      ['a Pool without dispatch (Bun’s built-in undici)', undiciWith(PoolWithoutDispatch)],
      ['a Pool whose dispatch never answers', undiciWith(SilentPool)],
      [
        'an undici that does not load',
        (() => Promise.reject(new Error('Cannot find module undici'))) as LoadUndici,
      ],
    ] as const) {
      test(`${what}: the first call, a PUT, goes out once through fetch, and so do the next`, async () => {
        const s = await provider();
        const exchange = poolExchange(s.url, load);
        const answer = await exchange(put, 2_000);
        assert.equal(answer.status, 200);
        assert.equal(JSON.parse(answer.text).status, 'PAID');
        assert.equal((await exchange(get, 2_000)).status, 200);
        assert.equal(fetched, 2);
        assert.deepEqual(
          s.seen.map((r) => `${r.method} ${r.url} ${r.body}`),
          [`PUT ${put.path} ${put.body}`, `GET ${get.path} `],
        );
      });
    }

    test('calls made while undici is still loading wait for the choice and each go out once', async () => {
      const s = await provider();
      let loaded = (_: Awaited<ReturnType<LoadUndici>>) => {};
      const load: LoadUndici = () =>
        new Promise((resolve) => {
          loaded = resolve;
        });
      const exchange = poolExchange(s.url, load);
      const calls = [exchange(put, 2_000), exchange(get, 2_000), exchange(get, 2_000)];
      // Nothing leaves before the choice is made.
      await new Promise((resolve) => setImmediate(resolve));
      assert.equal(s.seen.length, 0);
      loaded({ Pool: PoolWithoutDispatch } as unknown as Awaited<ReturnType<LoadUndici>>);
      const answers = await Promise.all(calls);
      assert.deepEqual(
        answers.map((a) => a.status),
        [200, 200, 200],
      );
      assert.deepEqual(s.seen.map((r) => r.method).sort(), ['GET', 'GET', 'PUT']);
    });
  });

  describe('the probe', () => {
    test('passes on undici’s pool, opens no connection, and leaves the pool working', async () => {
      const urls: string[] = [];
      const raw = createServer((req, res) => {
        urls.push(req.url ?? '');
        sendJson(res, 200, checkoutAnswer('PAID'));
      });
      let connections = 0;
      raw.on('connection', () => {
        connections += 1;
      });
      const listening = await listenLoopback(raw);
      const pool = new Pool(listening.url);
      try {
        assert.equal(dispatchesLikeUndici(pool), true);
        const answer = await pool.request({ method: 'GET', path: get.path });
        assert.equal(answer.statusCode, 200);
        assert.equal(((await answer.body.json()) as { status: string }).status, 'PAID');
      } finally {
        // Waits for anything the pool still had to send.
        await pool.close();
        await listening.close();
      }
      assert.deepEqual(urls, [get.path]);
      assert.equal(connections, 1);
    });

    test('fails, without waiting, on a Pool that has no dispatch or never answers', () => {
      assert.equal(dispatchesLikeUndici(new PoolWithoutDispatch() as never), false);
      assert.equal(dispatchesLikeUndici(new SilentPool() as never), false);
    });
  });
});
