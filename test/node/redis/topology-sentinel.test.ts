// A primary and a replica under three sentinels on loopback (topology.ts): the store's
// contract through every client package that reaches a primary by sentinels; then, per
// client, 60 checkouts raced on two instances, the rate limits across four, and
// reconciliation with every webhook dropped. Last, the primary is SIGKILLed during 30 card
// payments with every webhook dropped: every one is paid, and once the sentinels have
// promoted the replica every onPaid has run within two reconciliation intervals. A claim the
// old primary acknowledged but never passed on is lost with it, so a hook may run twice:
// those are counted and printed.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { scaled, until } from '../../shared/until.ts';
import { paymentsThrough } from './incident.ts';
import { INTERVAL_MS, SLACK_MS, topologyTests } from './topology.ts';

const { cluster } = topologyTests('sentinel', { contract: true });

test('Sentinel: the primary SIGKILLed during 30 payments, webhooks dropped: every order paid is fulfilled after the promotion', {
  timeout: scaled(90_000),
}, async () => {
  const c = cluster();
  const sentinel = c.sentinel!;
  // Counted from when the sentinels named the new primary (the payments may still be going on
  // then): until that moment no client can find it.
  const { promoted, announced } = sentinel.nextFailover();
  let killedAt = 0;
  const problemsBefore = c.tally.problems.length;
  const report = await paymentsThrough(
    c,
    {
      async start() {
        await c.redis.kill();
        killedAt = Date.now();
      },
      over: () => announced,
    },
    30,
    10,
  );
  const counts = c.tally.counts(report.ids);
  const problems = c.tally.problems.slice(problemsBefore);
  const mayHaveRunTwice = problems.filter((p) => p.message.includes('may have run twice'));
  console.log(
    `Sentinel, primary SIGKILLed: the replica was promoted ${(await promoted) - killedAt} ms later and announced ${report.backAt - killedAt} ms after the kill; ` +
      `${report.ids.length} card payments (${report.during.length} after the kill, each answered PAID), webhooks dropped; ` +
      `onPaid once ${counts.once}, twice or more ${counts.more}, never ${counts.never}; ` +
      `${mayHaveRunTwice.length} "may have run twice" warnings; ` +
      `every onPaid finished at most ${report.latestMs} ms after the announcement or its payment, whichever came later (interval ${INTERVAL_MS} ms); ` +
      `payments answered in ${report.medianPaymentMs} ms (median), ${report.slowestPaymentMs} ms at the slowest`,
  );
  await until(
    'the sentinels to name the replica as the primary',
    async () => (await sentinel.primaryPort()) === sentinel.replica.port,
  );
  assert.equal(counts.never, 0);
  assert.equal(counts.once + counts.more, report.ids.length);
  assert.ok(report.during.length >= 10, `only ${report.during.length} paid after the kill`);
  assert.ok(
    report.latestMs <= 2 * INTERVAL_MS + SLACK_MS,
    `an onPaid ${report.latestMs} ms late: ${report.latest}`,
  );
});
