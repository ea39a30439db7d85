// createRedisStore against a real redis-server, through each client package it
// supports: the store's contract (redis-store-contract.ts: the lease protocol, the open
// checkouts, the records, the counters, scripts sent again), its keys' lifetimes, and what it
// does when Redis stalls or goes away. The Cluster and Sentinel files run the same contract.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Redis } from 'ioredis';
import { createClient } from 'redis';
import { createClient as createClient4 } from 'redis4';
import { createClient as createClient5 } from 'redis5';
import {
  createRedisStore,
  type PaymentStore,
  type RedisClientLike,
} from '../../../src/server/index.ts';
import { scaled, sleep, until } from '../../shared/until.ts';
import {
  CLIENT_KINDS,
  CLIENT_NAMES,
  type ConnectedClient,
  connectClient,
  testRedisStore,
} from '../support/redis-clients.ts';
import { type RedisServer, startRedisServer } from '../support/redis-server.ts';
import { redisStoreContract } from '../support/redis-store-contract.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

test('a client never connected (connect() forgotten, or lazyConnect) says to connect it', async () => {
  // Nothing listens there, and nothing connects: none of these clients opens a socket.
  const url = 'redis://127.0.0.1:9';
  const never = {
    redis: createClient({ url }),
    redis5: createClient5({ url }),
    redis4: createClient4({ url }),
    ioredis: new Redis(url, { lazyConnect: true }),
  };
  for (const [kind, client] of Object.entries(never)) {
    const store = createRedisStore(client as RedisClientLike, { commandTimeoutMs: 60_000 });
    await assert.rejects(
      store.claim('onPaid:M1:co_1', 'a', 5_000),
      /^Error: Redis is not connected \(.*await client\.connect\(\)/,
      kind,
    );
  }
});

test('a client of neither package, and bad options, are refused up front', async () => {
  const unsupported = (client: unknown) => client as RedisClientLike;
  // The message names every client that is supported.
  assert.throws(
    () => createRedisStore(unsupported({})),
    (error: Error) =>
      error instanceof TypeError &&
      /redis or ioredis/.test(error.message) &&
      ['createClient', 'createCluster', 'createSentinel', 'new Redis(url)', 'sentinels'].every(
        (name) => error.message.includes(name),
      ) &&
      error.message.includes('Redis.Cluster') &&
      error.message.endsWith('got an object with neither call() nor sendCommand()'),
  );
  assert.throws(() => createRedisStore(unsupported(undefined)), /got undefined$/);
  // A function is named, as the PostgreSQL store names one, rather than printed whole.
  assert.throws(
    () => createRedisStore(unsupported(() => {})),
    /got a Function with neither call\(\) nor sendCommand\(\)$/,
  );
  // ioredis 4: a status and a sendCommand of its own, but no call().
  assert.throws(
    () => createRedisStore(unsupported({ status: 'ready', sendCommand() {} })),
    /ioredis has no call\(\)/,
  );
  // node_redis 3: a sendCommand that answers through a callback, not a promise.
  const callbacks = createRedisStore(unsupported({ sendCommand: () => true }));
  await assert.rejects(callbacks.claim('onPaid:M1:co_1', 't', 1_000), /redis or ioredis/);
  const client = { sendCommand: async () => 'OK' };
  assert.throws(() => createRedisStore(client, { doneTtlMs: 0 }), /doneTtlMs/);
  assert.throws(
    () => createRedisStore(client, { commandTimeoutMs: Number.NaN }),
    /commandTimeoutMs/,
  );
});

test('a done mark counts once Redis confirms it in its append-only file (WAITAOF, 7.2 and later)', async () => {
  const asked: string[] = [];
  /** A client whose Redis answers WAITAOF with `waitaof` (a value, or an error to throw). */
  const redisAnswering = (waitaof: () => unknown) => ({
    async sendCommand(args: string[]) {
      asked.push(args[0]!);
      if (args[0] === 'WAITAOF') return waitaof();
      return 1;
    },
  });
  // Fsynced on the primary: done.
  assert.equal(await createRedisStore(redisAnswering(() => [1, 0])).complete('k', 't'), true);
  // Not fsynced in time: not done yet (the reporter writes it again).
  await assert.rejects(
    createRedisStore(redisAnswering(() => [0, 0])).complete('k', 't'),
    /did not confirm the done mark in its append-only file/,
  );
  // Before 7.2 (as the redis-server these tests run), or with the AOF off: asked once, then not.
  asked.length = 0;
  const older = createRedisStore(
    redisAnswering(() => {
      throw new Error("ERR unknown command 'WAITAOF'");
    }),
  );
  assert.equal(await older.complete('k', 't'), true);
  assert.equal(await older.complete('k', 't'), true);
  // (Each mark done also forgets its claim's record, an EVALSHA not awaited.)
  assert.deepEqual(
    asked.filter((name) => name === 'WAITAOF'),
    ['WAITAOF'],
  );
  // Several marks sent together, before the first refusal comes back, as on a busy
  // instance: each takes the refusal as the first did, and every mark is done.
  const together = createRedisStore(
    redisAnswering(async () => {
      await new Promise((resolve) => setImmediate(resolve));
      throw new Error("ERR unknown command 'WAITAOF'");
    }),
  );
  const marks = ['a', 'b', 'c'].map((key) => together.complete(key, 't'));
  assert.deepEqual(await Promise.all(marks), [true, true, true]);
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
      store = testRedisStore(connected.client, { prefix, doneTtlMs: 2 * DAY_MS });
    });

    after(async () => {
      await connected?.close();
      await admin?.close();
      await server?.stop();
    });

    redisStoreContract(
      () => ({
        store,
        prefix,
        command: (...args) => connected.command(...args),
        flushScripts: async () => {
          await admin.command('SCRIPT', 'FLUSH');
        },
      }),
      kind,
    );

    test('the open set expires by itself when nobody watches into it for doneTtlMs', async () => {
      await store.watch?.('open:expiring', 'co_1', Date.now());
      const left = await pttl('open:expiring');
      assert.ok(left > DAY_MS && left <= 2 * DAY_MS, `set expires in ${left} ms`);
    });

    test('done is kept for doneTtlMs', async () => {
      const key = fresh();
      assert.equal(await store.claim(key, 'holder', 5_000), 'claimed');
      assert.equal(await store.complete(key, 'holder'), true);
      const left = await pttl(key);
      assert.ok(left > 2 * DAY_MS - 60_000 && left <= 2 * DAY_MS, `done kept ${left} ms`);
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

    test('a claim made while a hook that threw is being released is no takeover (another instance, its webhook)', async () => {
      const key = fresh();
      // Instance A's commands go through `connected`; the one that forgets the claim's record
      // waits until the test lets it go, as a busy event loop or network may hold it.
      let reached!: () => void;
      const atRecord = new Promise<void>((resolve) => {
        reached = resolve;
      });
      let letGo!: () => void;
      const held = new Promise<void>((resolve) => {
        letGo = resolve;
      });
      const gated = {
        isReady: true,
        async sendCommand(args: string[]) {
          if (args[0]?.startsWith('EVAL') && args[3] === `${prefix}claimed:${key}`) {
            reached();
            await held;
          }
          return connected.command(...args);
        },
      };
      const a = testRedisStore(gated, { prefix });
      assert.equal(await a.claim(key, 'a', 60_000), 'claimed');
      // A's hook threw at once: A releases, and B's webhook claims meanwhile.
      const released = a.release(key, 'a');
      await atRecord;
      const meanwhile = await store.claim(key, 'b', 5_000);
      letGo();
      assert.equal(await released, true);
      // Before, the key went first: B took it, read A's record and said "may have run twice".
      assert.equal(meanwhile, 'running', 'A still held it: B is told to come back');
      assert.equal(await store.claim(key, 'b', 5_000), 'claimed');
      assert.equal(await read(`claimed:${key}`), 'running:b');
    });

    test('a command Redis does not answer is given up after commandTimeoutMs; its claim runs no hook', async () => {
      const key = fresh();
      const impatient = createRedisStore(connected.client, {
        prefix,
        commandTimeoutMs: 100,
      });
      // Writes wait until the test lets them go; reads on another connection still answer,
      // so the test can look while Redis holds the SET.
      await admin.command('CLIENT', 'PAUSE', String(scaled(60_000)), 'WRITE');
      try {
        await assert.rejects(
          impatient.claim(key, 'paused', 60_000),
          /did not answer SET within 100 ms/,
        );
        assert.equal(await admin.command('GET', prefix + key), null, 'gave up before Redis ran it');
      } finally {
        await admin.command('CLIENT', 'UNPAUSE');
      }
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
      assert.ok(
        Date.now() - started < 300 + scaled(500),
        `failed after ${Date.now() - started} ms`,
      );
      // By now the client knows it is disconnected: nothing is queued, the claim fails at once,
      // saying so, not after a command timeout (a minute here) that a queued claim would wait.
      const patient = createRedisStore(connected.client, { prefix, commandTimeoutMs: 60_000 });
      started = Date.now();
      await assert.rejects(patient.claim(fresh(), 'down', 5_000), /not connected/);
      assert.ok(Date.now() - started < scaled(1_000), `failed after ${Date.now() - started} ms`);
      await server.restart();
      const key = fresh();
      let state: string | undefined;
      await until('the client to reconnect', async () => {
        state = await store.claim(key, 'back', 5_000).catch(() => undefined);
        return state !== undefined;
      });
      assert.equal(state, 'claimed');
      assert.equal(await store.complete(key, 'back'), true);
    });
  });
}
