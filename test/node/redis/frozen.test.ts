// A Redis that stops answering with its connection open (SIGSTOP: a hung machine, a lost
// network) under the README's shop: a new checkout costs one command timeout, not one per
// store call, through node-redis and through ioredis; once it answers again, the payment's
// hook runs, once. On a Cluster, one master that stops answering fails only the commands it
// was to answer: a claim on another master right after is taken as ever.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Sandbox } from '../../../src/sandbox/index.ts';
import { scaled } from '../../shared/until.ts';
import { makeHandler, startSandbox } from '../server/fixtures.ts';
import { frozenCostsOneTimeout } from '../support/frozen-store.ts';
import { type ConnectedClient, connectClient, testRedisStore } from '../support/redis-clients.ts';
import { type RedisServer, startRedisServer } from '../support/redis-server.ts';
import { cli, type RedisCluster, startRedisCluster } from '../support/redis-topologies.ts';

let sb: Sandbox;
const servers: (RedisServer | RedisCluster)[] = [];
const clients: ConnectedClient[] = [];

before(async () => {
  sb = await startSandbox();
});
after(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await Promise.all([sb?.close(), ...servers.map((s) => s.stop())]);
});

for (const kind of ['redis', 'ioredis'] as const) {
  describe(kind, () => {
    test('a Redis that stops answering costs a new checkout one command timeout, not one per call', async (t) => {
      t.mock.method(console, 'error', () => {});
      t.mock.method(console, 'warn', () => {});
      const redis = await startRedisServer();
      servers.push(redis);
      const connected = await connectClient(kind, redis.url);
      clients.push(connected);
      const timeoutMs = scaled(1_000);
      // As the README's shop: a basket's checkout, its record read and written in the store.
      let basket = 0;
      const h = makeHandler(sb, {
        store: testRedisStore(connected.client, { commandTimeoutMs: timeoutMs }),
        resolveCheckout: () => ({
          amount: 10,
          currency: 'EUR',
          reference: `${kind}-basket-${++basket}`,
        }),
      });
      await frozenCostsOneTimeout(h, timeoutMs, redis);
    });
  });
}

const PREFIX = 'payment-widget:';

/** A hash tag for claim keys whose slot `node` serves (`inside`), or one it does not. */
async function keyServedBy(node: RedisServer, inside: boolean): Promise<string> {
  const mine = (await cli(node.port, 'CLUSTER', 'NODES'))
    .split('\n')
    .find((l) => l.includes('myself'));
  const [from, to] = (mine?.trim().split(' ').at(-1) ?? '').split('-').map(Number) as [
    number,
    number,
  ];
  for (let i = 0; ; i += 1) {
    const tag = `{frozen-${i}}`;
    const slot = Number(await cli(node.port, 'CLUSTER', 'KEYSLOT', `${PREFIX}onPaid:${tag}`));
    if ((slot >= from && slot <= to) === inside) return tag;
  }
}

describe('Redis Cluster', () => {
  let cluster: RedisCluster;
  before(async () => {
    cluster = await startRedisCluster();
    servers.push(cluster);
  });

  for (const kind of ['redis', 'ioredis'] as const) {
    test(`${kind}: a master that stops answering fails its own keys only, not another master's right after`, async () => {
      const connected = await connectClient(kind, cluster.target);
      clients.push(connected);
      const timeoutMs = scaled(1_000);
      const store = testRedisStore(connected.client, { commandTimeoutMs: timeoutMs });
      const frozen = cluster.nodes[0]!;
      const [stuck, elsewhere] = await Promise.all([
        keyServedBy(frozen, true),
        keyServedBy(frozen, false),
      ]);
      // Both masters' connections open while they answer (a key of the same slot each).
      await store.claim(`onPaid:${stuck}:${kind}-warm`, kind, 60_000);
      await store.claim(`onPaid:${elsewhere}:${kind}-warm`, kind, 60_000);
      frozen.freeze();
      try {
        await assert.rejects(
          store.claim(`onPaid:${stuck}:${kind}`, kind, 60_000),
          /did not answer/,
        );
        const started = performance.now();
        assert.equal(await store.claim(`onPaid:${elsewhere}:${kind}`, kind, 60_000), 'claimed');
        const elapsed = performance.now() - started;
        assert.ok(elapsed < timeoutMs, `${Math.round(elapsed)} ms, the timeout ${timeoutMs} ms`);
      } finally {
        frozen.thaw();
      }
    });
  }
});
