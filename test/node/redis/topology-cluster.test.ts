// Redis Cluster, three masters on loopback (topology.ts): the store's contract through every
// client package, each routing its commands by key and sending a script again to whichever
// node forgot it; the key layout's slots; then, per client, 60 checkouts raced on two
// instances, the rate limits across four (their two counters in one script, one slot), and
// reconciliation with every webhook dropped.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cli } from '../support/redis-topologies.ts';
import { topologyTests } from './topology.ts';

const { cluster } = topologyTests('cluster', { contract: true });

test('the merchant’s open set, sweep record and rate counters share a slot; claims spread', async () => {
  const slotOf = async (key: string) =>
    Number(await cli(cluster().redis.port, 'CLUSTER', 'KEYSLOT', `payment-widget:${key}`));
  const tagged = ['open:{M1}', 'sweep:{M1}', 'rate:{M1}:paymentsPerClient:127.0.0.1'];
  const slots = await Promise.all(tagged.map(slotOf));
  assert.equal(new Set(slots).size, 1, `slots ${slots.join(' ')}`);
  const claims = await Promise.all(
    Array.from({ length: 12 }, (_, i) => slotOf(`onPaid:M1:co_${i}`)),
  );
  assert.ok(new Set(claims).size > 1, 'claims hash to several slots');
});
