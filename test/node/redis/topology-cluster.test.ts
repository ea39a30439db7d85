// Redis Cluster, three masters on loopback (topology.ts): the store's contract through every
// client package, each routing its commands by key and sending a script again to whichever
// node forgot it; the key layout's slots; then, per client, 60 checkouts raced on two
// instances, the rate limits across four (their two counters in one script, one slot), and
// reconciliation with every webhook dropped.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createRedisStore, type PaymentStore } from '../../../src/server/index.ts';
import { redisConnection } from '../../../src/server/store/redis-client.ts';
import {
  CLIENT_NAMES,
  type ConnectedClient,
  connectClient,
  kindsFor,
} from '../support/redis-clients.ts';
import { redisStoreContract } from '../support/redis-store-contract.ts';
import { cli } from '../support/redis-topologies.ts';
import type { Cluster } from './cluster.ts';
import {
  CLIENTS,
  pairOf,
  race,
  rateLimitsAcross,
  reconcileEach,
  startTopology,
} from './topology.ts';

let cluster: Cluster | undefined;
const everyId: string[] = [];

before(async () => {
  cluster = await startTopology('cluster');
});

after(async () => {
  await cluster?.stop();
});

const slotOf = async (key: string) =>
  Number(await cli(cluster!.redis.port, 'CLUSTER', 'KEYSLOT', key));

test('the merchant’s open set, sweep record and rate counters share a slot; claims spread', async () => {
  const prefix = 'payment-widget:';
  const tagged = ['open:{M1}', 'sweep:{M1}', 'rate:{M1}:paymentsPerClient:127.0.0.1'];
  const slots = await Promise.all(tagged.map((key) => slotOf(prefix + key)));
  assert.equal(new Set(slots).size, 1, `slots ${slots.join(' ')}`);
  const claims = await Promise.all(
    Array.from({ length: 12 }, (_, i) => slotOf(`${prefix}onPaid:M1:co_${i}`)),
  );
  assert.ok(new Set(claims).size > 1, 'claims hash to several slots');
});

for (const kind of kindsFor('cluster')) {
  describe(`the Redis store on a Cluster through ${CLIENT_NAMES[kind]}`, () => {
    let connected: ConnectedClient;
    let store: PaymentStore;
    const prefix = `cluster-${kind}:`;

    before(async () => {
      connected = await connectClient(kind, cluster!.target);
      store = createRedisStore(connected.client, { prefix });
    });

    after(async () => {
      await connected?.close();
    });

    test('is told to be a Cluster client', () => {
      const { topology, made } = redisConnection(connected.client);
      assert.equal(topology, 'cluster');
      assert.match(made, kind === 'ioredis' ? /Redis\.Cluster/ : /createCluster/);
      // WAIT names no key: a Cluster client could not send it to the key's primary.
      assert.throws(
        () =>
          createRedisStore(connected.client, {
            waitForReplicas: { replicas: 1, timeoutMs: 100 },
          }),
        /waitForReplicas is not supported on a Cluster/,
      );
    });

    redisStoreContract(
      () => ({
        store,
        prefix,
        command: (...args) => connected.command(...args),
        flushScripts: async () => {
          const nodes = cluster!.target.kind === 'cluster' ? cluster!.target.nodes : [];
          await Promise.all(nodes.map((n) => cli(n.port, 'SCRIPT', 'FLUSH')));
        },
      }),
      kind,
    );
  });
}

for (const client of CLIENTS) {
  test(`Redis Cluster, ${client}: 60 checkouts raced on two instances run onPaid once each`, async () => {
    everyId.push(...(await race(cluster!, pairOf(cluster!, client), `Redis Cluster, ${client}`)));
  });
}

test('Redis Cluster: the rate limits answer 429 across instances', async () => {
  await rateLimitsAcross(cluster!, 'Redis Cluster');
});

test('Redis Cluster: reconciliation runs each due hook once', async () => {
  everyId.push(...(await reconcileEach(cluster!, 'Redis Cluster')));
});

test('Redis Cluster: no onPaid of the whole file ran twice, no instance logged a problem', () => {
  const c = cluster!;
  assert.deepEqual(c.tally.counts(everyId), { once: everyId.length, more: 0, never: 0 });
  // The first refusal of the rate test is logged once, by whichever instance counted it.
  const reached = c.tally.problems.filter((p) => p.message.startsWith('rate limit'));
  assert.equal(reached.length, 1);
  assert.deepEqual(
    c.tally.problems.filter((p) => !reached.includes(p)),
    [],
  );
});
