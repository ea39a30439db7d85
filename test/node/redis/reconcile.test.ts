// Every webhook delivery refused (the shop's endpoint down for the provider's whole retry
// window) and no shopper back on the return page (the tab closed after 3DS): two instances
// on one Redis, each reconciling on its own timer at the same time, still run each paid
// order's onPaid exactly once, within one reconciliation interval of its payment.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { scaled, until } from '../../shared/until.ts';
import { type Cluster, reconciledAfter, startCluster } from './cluster.ts';
import { paidBehind } from './shopper.ts';

const CHECKOUTS = 12;
const INTERVAL_MS = 1_000;
/** What a loaded machine may add to an interval: reading the checkout, claiming, IPC (scaled). */
const SLACK_MS = scaled(1_500);

let cluster: Cluster | undefined;

before(async () => {
  cluster = await startCluster({
    webhook: { attempts: 3, initialDelayMs: 100, maxDelayMs: 200 },
    balancer: 'round-robin',
    refuseWebhooks: true,
    reconcileEveryMs: INTERVAL_MS,
    leaseMs: 5_000,
    hookMs: 5,
    instances: [
      { name: 'A', client: 'redis' },
      { name: 'B', client: 'ioredis' },
    ],
  });
});

after(async () => {
  await cluster?.stop();
});

test('webhooks refused, return page never reached: two reconciling instances run each onPaid once', async () => {
  const c = cluster!;
  const paidAt = await paidBehind(c.instances, CHECKOUTS);
  const ids = [...paidAt.keys()];
  await until(
    () => `every onPaid (${JSON.stringify(c.tally.counts(ids))})`,
    () => c.tally.allFinished(ids),
    INTERVAL_MS * 3 + SLACK_MS * 4,
  );
  // Counted once both timers have had another pass: that is what would run one again.
  await reconciledAfter(c, ids, c.instances);
  assert.deepEqual(c.tally.counts(ids), { once: CHECKOUTS, more: 0, never: 0 });
  // Which instance ran which hook is up to their timers: two that tick in step leave all
  // the work to whichever reads the set first, and that is fine. What they must never do
  // is both run one (counted above).
  for (const id of ids) {
    const [run] = c.tally.started.get(id)!;
    const late = run!.at - paidAt.get(id)!;
    assert.ok(late <= INTERVAL_MS + SLACK_MS, `${id}: onPaid began ${late} ms after its payment`);
  }
  assert.equal(c.webhooks.acknowledged, 0, `webhooks: ${c.webhooks.summary()}`);
  assert.deepEqual(c.tally.problems, []);
});
