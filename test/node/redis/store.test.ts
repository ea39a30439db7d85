// createRedisStore against a real redis-server, through each client package it
// supports: the lease protocol (claim, complete, release, compare on the token), its keys,
// and what it does when Redis forgets its scripts, stalls or goes away.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  createRedisStore,
  type PaymentStore,
  type RedisClientLike,
} from '../../../src/server/index.ts';
import { sleep, until } from '../../shared/until.ts';
import { openSetContract } from '../support/open-set.ts';
import { recordContract } from '../support/records.ts';
import {
  CLIENT_KINDS,
  CLIENT_NAMES,
  type ConnectedClient,
  connectClient,
} from '../support/redis-clients.ts';
import { type RedisServer, startRedisServer } from '../support/redis-server.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

test('a client of neither package, and bad options, are refused up front', () => {
  assert.throws(() => createRedisStore({} as unknown as RedisClientLike), /redis or ioredis/);
  const client = { sendCommand: async () => 'OK' };
  assert.throws(() => createRedisStore(client, { doneTtlMs: 0 }), /doneTtlMs/);
  assert.throws(
    () => createRedisStore(client, { commandTimeoutMs: Number.NaN }),
    /commandTimeoutMs/,
  );
});

for (const kind of CLIENT_KINDS) {
  describe(`the Redis store on ${CLIENT_NAMES[kind]}`, () => {
    let server: RedisServer;
    let connected: ConnectedClient;
    let admin: ConnectedClient;
    let store: PaymentStore;
    const prefix = `test-${kind}:`;
    let n = 0;
    /** A fresh key per test, so no test sees another's. */
    const fresh = () => {
      n += 1;
      return `onPaid:M1:co_${n}`;
    };
    const read = (key: string) => connected.command('GET', prefix + key);
    const pttl = async (key: string) => Number(await connected.command('PTTL', prefix + key));

    before(async () => {
      server = await startRedisServer();
      connected = await connectClient(kind, server.url);
      admin = await connectClient('redis', server.url);
      store = createRedisStore(connected.client, { prefix, doneTtlMs: 2 * DAY_MS });
    });

    after(async () => {
      await connected?.close();
      await admin?.close();
      await server?.stop();
    });

    describe('records', () => {
      recordContract(
        () => store,
        () => {
          n += 1;
          return `basket:M1:b${n}`;
        },
      );
    });

    describe('open checkouts', () => {
      openSetContract(
        () => store,
        () => {
          n += 1;
          return `open:M${n}`;
        },
      );
      test('the set expires by itself when nobody tracks into it for doneTtlMs', async () => {
        await store.track?.('open:expiring', 'co_1', Date.now());
        const left = await pttl('open:expiring');
        assert.ok(left > DAY_MS && left <= 2 * DAY_MS, `set expires in ${left} ms`);
      });
    });

    test('one of many concurrent claims wins; the key holds its token for the lease', async () => {
      const key = fresh();
      const tokens = Array.from({ length: 20 }, (_, i) => `t${i}`);
      const states = await Promise.all(tokens.map((token) => store.claim(key, token, 5_000)));
      const winners = tokens.filter((_, i) => states[i] === 'claimed');
      assert.equal(winners.length, 1, `claims: ${states.join(' ')}`);
      assert.ok(states.every((s) => s === 'claimed' || s === 'running'));
      assert.equal(await read(key), `running:${winners[0]}`);
      const left = await pttl(key);
      assert.ok(left > 4_000 && left <= 5_000, `lease left ${left} ms`);
    });

    test('only the holder completes; done is kept for doneTtlMs', async () => {
      const key = fresh();
      assert.equal(await store.claim(key, 'holder', 5_000), 'claimed');
      assert.equal(await store.complete(key, 'other'), false);
      assert.equal(await read(key), 'running:holder');
      assert.equal(await store.complete(key, 'holder'), true);
      assert.equal(await store.complete(key, 'holder'), true, 'a repeated complete is harmless');
      assert.equal(await read(key), 'done:holder');
      const left = await pttl(key);
      assert.ok(left > 2 * DAY_MS - 60_000 && left <= 2 * DAY_MS, `done kept ${left} ms`);
      assert.equal(await store.claim(key, 'late', 5_000), 'done');
      assert.equal(await store.release(key, 'holder'), false, 'a done key is never freed');
      assert.equal(await read(key), 'done:holder');
    });

    test('only the holder releases; a released key is claimed again', async () => {
      const key = fresh();
      assert.equal(await store.claim(key, 'holder', 5_000), 'claimed');
      assert.equal(await store.release(key, 'other'), false);
      assert.equal(await store.claim(key, 'other', 5_000), 'running');
      assert.equal(await store.release(key, 'holder'), true);
      assert.equal(await read(key), null);
      assert.equal(await store.claim(key, 'next', 5_000), 'claimed');
    });

    test('a lease that ran out is taken over, and its old holder can neither complete nor free it', async () => {
      const key = fresh();
      // Long enough that the second claim, one round trip later, meets it even on a loaded machine.
      assert.equal(await store.claim(key, 'dead', 200), 'claimed');
      assert.equal(await store.claim(key, 'early', 5_000), 'running');
      await sleep(250);
      assert.equal(await store.claim(key, 'next', 5_000), 'claimed');
      assert.equal(await store.complete(key, 'dead'), false);
      assert.equal(await store.release(key, 'dead'), false);
      assert.equal(await read(key), 'running:next');
    });

    test('a holder whose lease ran out while nobody took it over still records done', async () => {
      const key = fresh();
      assert.equal(await store.claim(key, 'slow', 30), 'claimed');
      await sleep(50);
      assert.equal(await store.complete(key, 'slow'), true);
      assert.equal(await store.claim(key, 'next', 5_000), 'done');
    });

    test('the scripts are sent again after Redis forgot them (SCRIPT FLUSH, a restart)', async () => {
      const key = fresh();
      assert.equal(await store.claim(key, 'a', 5_000), 'claimed');
      assert.equal(await store.release(key, 'a'), true);
      await admin.command('SCRIPT', 'FLUSH');
      assert.equal(await store.claim(key, 'b', 5_000), 'claimed');
      assert.equal(await store.release(key, 'b'), true);
      await admin.command('SCRIPT', 'FLUSH');
      assert.equal(await store.claim(key, 'c', 5_000), 'claimed');
      assert.equal(await store.complete(key, 'c'), true);
      assert.equal(await read(key), 'done:c');
    });

    test('a command Redis does not answer is given up after commandTimeoutMs; its claim runs no hook', async () => {
      const key = fresh();
      const impatient = createRedisStore(connected.client, {
        prefix,
        commandTimeoutMs: 100,
      });
      await admin.command('CLIENT', 'PAUSE', '400', 'ALL');
      const started = Date.now();
      await assert.rejects(
        impatient.claim(key, 'paused', 5_000),
        /did not answer SET within 100 ms/,
      );
      assert.ok(Date.now() - started < 400, 'gave up before Redis came back');
      // The SET still runs once Redis resumes: the key is held (no one runs the hook)
      // until the lease ends, and the webhook that got no claim is delivered again.
      await until('Redis to resume and run the paused SET', async () => {
        return (await read(key)) === 'running:paused';
      });
      assert.equal(await store.claim(key, 'after', 5_000), 'running');
      assert.equal(await read(key), 'running:paused');
    });

    test('a stopped Redis fails claims (at once once the client knows); after a restart the store works again', async () => {
      const impatient = createRedisStore(connected.client, {
        prefix,
        commandTimeoutMs: 300,
      });
      await server.kill();
      // The first command may already be on the dying socket: it waits out commandTimeoutMs.
      let started = Date.now();
      await assert.rejects(impatient.claim(fresh(), 'down', 5_000));
      assert.ok(Date.now() - started < 800, `failed after ${Date.now() - started} ms`);
      // By now the client knows it is disconnected: nothing is queued, the claim fails at once.
      started = Date.now();
      await assert.rejects(impatient.claim(fresh(), 'down', 5_000), /not connected/);
      assert.ok(Date.now() - started < 100, `failed after ${Date.now() - started} ms`);
      await server.restart();
      const key = fresh();
      let state: string | undefined;
      await until(
        'the client to reconnect within 5 s',
        async () => {
          state = await store.claim(key, 'back', 5_000).catch(() => undefined);
          return state !== undefined;
        },
        5_000,
      );
      assert.equal(state, 'claimed');
      assert.equal(await store.complete(key, 'back'), true);
    });
  });
}
