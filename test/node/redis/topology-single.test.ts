// One Redis (topology.ts): per client, 60 checkouts raced on two instances; the rate limits
// across four; reconciliation with every webhook dropped (the store's contract on one Redis
// is store.test.ts). Then the Redis is stopped for 5 s in the middle of 30 card payments,
// every webhook dropped: the handler keeps taking them, and once Redis is back every order
// paid meanwhile is fulfilled, once, within two reconciliation intervals, found in the
// provider's list (its watch failed with Redis).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { scaled, sleep } from '../../shared/until.ts';
import { paymentsThrough } from './incident.ts';
import { INTERVAL_MS, SLACK_MS, topologyTests } from './topology.ts';

const OUTAGE_MS = 5_000;

const { cluster, ids } = topologyTests('single', { contract: false });

test(`one Redis stopped for ${OUTAGE_MS / 1000} s during payments, webhooks dropped: each order paid meanwhile is fulfilled once`, {
  timeout: scaled(60_000),
}, async () => {
  const c = cluster();
  let stoppedAt = 0;
  const report = await paymentsThrough(
    c,
    {
      async start() {
        await c.redis.kill();
        stoppedAt = Date.now();
      },
      async over() {
        await sleep(Math.max(0, stoppedAt + OUTAGE_MS - Date.now()));
        await c.redis.restart();
        return Date.now();
      },
    },
    30,
    10,
  );
  ids.push(...report.ids);
  const counts = c.tally.counts(report.ids);
  console.log(
    `one Redis stopped for ${report.backAt - stoppedAt} ms: ${report.ids.length} card payments (${report.during.length} while it was down, each answered PAID), ` +
      `webhooks dropped; onPaid once ${counts.once}, more than once ${counts.more}, never ${counts.never}; ` +
      `every onPaid finished at most ${report.latestMs} ms after Redis was back or its payment, whichever came later (interval ${INTERVAL_MS} ms); ` +
      `payments answered in ${report.medianPaymentMs} ms (median), ${report.slowestPaymentMs} ms at the slowest`,
  );
  assert.ok(report.during.length >= 10, `only ${report.during.length} paid while Redis was down`);
  assert.deepEqual(counts, { once: report.ids.length, more: 0, never: 0 });
  assert.ok(
    report.latestMs <= 2 * INTERVAL_MS + SLACK_MS,
    `an onPaid ${report.latestMs} ms late: ${report.latest}`,
  );
});

test('one Redis: no onPaid of the whole file ran twice', () => {
  assert.deepEqual(cluster().tally.counts(ids), { once: ids.length, more: 0, never: 0 });
});
