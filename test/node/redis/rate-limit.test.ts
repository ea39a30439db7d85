// The rate limits shared through Redis: two handler instances (one on node-redis, one on
// ioredis) on one real redis-server, each on its own socket, hit at once by one client. The
// limit holds across both: the sum of the requests they accept is the limit, and only those
// reach the provider. Then the store's counters themselves, through every client package:
// one round trip per request, keys that expire with their window, scripts sent again after
// Redis forgot them.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { after, before, describe, test } from 'node:test';
import type { Sandbox } from '../../../src/sandbox/index.ts';
import { type PaymentHandlerOptions, toNodeListener } from '../../../src/server/index.ts';
import { scaled, sleep } from '../../shared/until.ts';
import { makeHandler, ORIGIN, startSandbox } from '../server/fixtures.ts';
import { type Client, clientAt, countingFetch } from '../support/clients.ts';
import { type Listening, listenLoopback } from '../support/loopback.ts';
import {
  CLIENT_KINDS,
  CLIENT_NAMES,
  type ConnectedClient,
  connectClient,
  testRedisStore,
} from '../support/redis-clients.ts';
import { type RedisServer, startRedisServer } from '../support/redis-server.ts';

const THREE_DS_CARD = '4200000000000042';

let redis: RedisServer;
let sb: Sandbox;
const connections: ConnectedClient[] = [];
const servers: Listening[] = [];
const clients: Client[] = [];

before(async () => {
  redis = await startRedisServer();
  sb = await startSandbox();
});

after(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await Promise.all(servers.map((s) => s.close()));
  await Promise.all(connections.map((c) => c.close()));
  await sb?.close();
  await redis?.stop();
});

/** Two instances sharing one Redis, and the provider calls they make between them. */
async function twoInstances(prefix: string, rateLimit: PaymentHandlerOptions['rateLimit']) {
  const counted = countingFetch();
  const mounts: string[] = [];
  for (const kind of ['redis', 'ioredis'] as const) {
    const connection = await connectClient(kind, redis.url);
    connections.push(connection);
    const h = makeHandler(sb, {
      provider: { fetch: counted.fetch },
      store: testRedisStore(connection.client, { prefix }),
      rateLimit,
    });
    const server = await listenLoopback(createServer(toNodeListener(h.handle)));
    servers.push(server);
    mounts.push(`${server.url}/payments`);
  }
  /** The same client (one address) as each instance sees it. */
  const client = (address: string) =>
    mounts.map((mount) => {
      const c = clientAt(address, mount, ORIGIN);
      clients.push(c);
      return c;
    });
  return { client, calls: counted.calls };
}

describe('two instances on one Redis', () => {
  test('creations from one client, sent to both at once: the sum accepted is the limit', async () => {
    const limit = 10;
    const { client, calls } = await twoInstances('rl-create:', {
      checkoutsPerClient: { limit, windowMs: 60_000 },
    });
    const [onA, onB] = client('127.0.0.2') as [Client, Client];
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => (i % 2 === 0 ? onA : onB).create()),
    );
    const accepted = answers.filter((a) => a.status === 201).length;
    const refused = answers.filter((a) => a.status === 429);
    assert.equal(accepted, limit, `statuses: ${answers.map((a) => a.status).join(' ')}`);
    assert.equal(refused.length, 30 - limit);
    assert.ok(refused.every((a) => a.body.error?.code === 'TOO_MANY_REQUESTS'));
    assert.ok(refused.every((a) => Number(a.headers.get('retry-after')) >= 1));
    assert.equal(calls.filter((c) => c === 'POST /v0.1/checkouts').length, limit);
    // Another client still creates, on either instance.
    const [otherA, otherB] = client('127.0.0.3') as [Client, Client];
    assert.equal((await otherA.create()).status, 201);
    assert.equal((await otherB.create()).status, 201);
  });

  test('attempts on one checkout, sent to both at once: the sum that reaches the provider is the limit', async () => {
    const limit = 2;
    const { client, calls } = await twoInstances('rl-pay:', {
      paymentsPerCheckout: { limit, windowMs: 60_000 },
    });
    const [onA, onB] = client('127.0.0.2') as [Client, Client];
    const id = (await onA.create()).body.id as string;
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => (i % 2 === 0 ? onA : onB).pay(id, THREE_DS_CARD)),
    );
    const through = answers.filter((a) => a.status !== 429).length;
    assert.equal(through, limit, `statuses: ${answers.map((a) => a.status).join(' ')}`);
    assert.equal(calls.filter((c) => c === `PUT /v0.1/checkouts/${id}`).length, limit);
  });
});

for (const kind of CLIENT_KINDS) {
  describe(`the Redis counters on ${CLIENT_NAMES[kind]}`, () => {
    let connected: ConnectedClient;
    let admin: ConnectedClient;
    const prefix = `counters-${kind}:`;

    before(async () => {
      connected = await connectClient(kind, redis.url);
      admin = await connectClient('redis', redis.url);
      connections.push(connected, admin);
    });

    test('count several keys in one call; each key lives as long as its window', async () => {
      const store = testRedisStore(connected.client, { prefix });
      const hit = store.hit?.bind(store);
      assert.ok(hit, 'the Redis store counts');
      const a = { key: 'a', windowMs: 60_000 };
      // Short, to see it end; scaled, so that both hits fall inside it on a busy machine.
      const b = { key: 'b', windowMs: scaled(400) };
      const first = await hit([a, b]);
      const second = await hit([a, b]);
      assert.deepEqual(
        [...first, ...second].map((s) => s.hits),
        [1, 1, 2, 2],
      );
      for (const state of [...first, ...second]) assert.ok(state.resetInMs > 0);
      assert.ok((second[0]?.resetInMs ?? 0) <= 60_000 && (second[1]?.resetInMs ?? 0) <= b.windowMs);
      const pttl = Number(await admin.command('PTTL', `${prefix}a`));
      assert.ok(pttl > 50_000 && pttl <= 60_000, `a's key expires with its window (${pttl} ms)`);
      await sleep((second[1]?.resetInMs ?? 0) + 50);
      assert.equal(Number(await admin.command('EXISTS', `${prefix}b`)), 0, 'b is gone by itself');
      assert.equal((await hit([b]))[0]?.hits, 1, 'and counts from one again');
    });

    test('the script is sent again after Redis forgot it', async () => {
      const store = testRedisStore(connected.client, { prefix: `${prefix}flush:` });
      const counter = { key: 'c', windowMs: 60_000 };
      assert.equal((await store.hit?.([counter]))?.[0]?.hits, 1);
      await admin.command('SCRIPT', 'FLUSH');
      assert.equal((await store.hit?.([counter]))?.[0]?.hits, 2);
    });
  });
}
