// Two handler instances in two processes share one real Redis (one through node-redis, the
// other through ioredis). 500 sandbox checkouts are paid at the provider, then each is
// reported to BOTH instances at once by the return page, the webhook and polling, while the
// sandbox's own webhook reaches one of them through the load balancer: onPaid runs exactly
// once per checkout.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { scaled, until } from '../../shared/until.ts';
import { type Cluster, startCluster } from './cluster.ts';
import { paidCheckout, reportEverywhere } from './shopper.ts';

const CHECKOUTS = 500;
const CONCURRENCY = 16;

let cluster: Cluster | undefined;

before(async () => {
  cluster = await startCluster({
    webhook: { attempts: 20, initialDelayMs: 100, maxDelayMs: 500 },
    balancer: 'round-robin',
    leaseMs: 10_000,
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

let busyWebhooks = 0;

/** One checkout: created on one instance, paid at the provider, reported six ways at once. */
async function payAndReport(c: Cluster, index: number): Promise<string> {
  const id = await paidCheckout(c, c.instances[index % 2]!);
  busyWebhooks += await reportEverywhere(c.instances, id);
  return id;
}

test(`${CHECKOUTS} checkouts reported to two instances by return, webhook and polling: one onPaid each`, {
  timeout: scaled(120_000),
}, async () => {
  const c = cluster!;
  const { tally, webhooks } = c;
  const started = performance.now();
  const ids: string[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < CHECKOUTS) ids.push(await payAndReport(c, next++));
    }),
  );
  // The sandbox's own webhooks (one per checkout) may still be on their way or retrying.
  await until(
    () => `${CHECKOUTS} webhooks acknowledged (${webhooks.acknowledged} were)`,
    () => webhooks.acknowledged >= CHECKOUTS,
    30_000,
  );
  await until('every hook to finish', () => tally.allFinished(ids), 10_000);
  const seconds = (performance.now() - started) / 1000;
  const counts = tally.counts(ids);
  const byInstance = { A: 0, B: 0 };
  for (const runs of tally.finished.values()) {
    for (const run of runs) byInstance[run.instance as 'A' | 'B'] += 1;
  }
  console.log(
    `redis, two instances: ${ids.length} checkouts, ${ids.length * 6} reports + ${webhooks.acknowledged} provider webhooks (${webhooks.summary()}), ` +
      `${busyWebhooks} reported webhooks told to come back; onPaid once ${counts.once}, more than once ${counts.more}, never ${counts.never} ` +
      `(A ran ${byInstance.A}, B ran ${byInstance.B}) in ${seconds.toFixed(1)} s`,
  );
  assert.equal(new Set(ids).size, CHECKOUTS);
  assert.deepEqual(counts, { once: CHECKOUTS, more: 0, never: 0 });
  assert.ok(byInstance.A > 0 && byInstance.B > 0, 'both instances ran hooks');
  assert.deepEqual(tally.problems, [], 'no instance logged a warning or an error');
});
