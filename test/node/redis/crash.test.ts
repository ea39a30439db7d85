// An instance killed (SIGKILL) in the middle of onPaid, as a crash, an OOM kill or a deploy's
// hard stop would: its claims stay `running` until their lease (leaseMs) ends, reports
// meanwhile do not run the hook (the webhook is told when to come back), and the provider's
// webhook, retried then on the sandbox's default schedule and now reaching the surviving
// instance through the load balancer, takes the claim over and runs the hook: each order is
// fulfilled exactly once.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { scaled, until } from '../../shared/until.ts';
import { type ConnectedClient, connectClient } from '../support/redis-clients.ts';
import { type Cluster, type Instance, startCluster } from './cluster.ts';
import { paidCheckout, postWebhook } from './shopper.ts';

const CHECKOUTS = 4;
/**
 * Long enough that the survivor's reports below all meet the doomed instance's claims however
 * slow the machine (whole seconds: Retry-After says it); the test waits it out once.
 */
const LEASE_MS = Math.ceil(scaled(2_000) / 1000) * 1000;

interface Delivery {
  payload: { id?: string };
  state: string;
  attempts: {
    at: string;
    status?: number;
    durationMs: number;
    retryAfter?: string;
    nextAt?: string;
  }[];
}

let cluster: Cluster | undefined;
let look: ConnectedClient | undefined;

before(async () => {
  cluster = await startCluster({
    // The sandbox's own schedule: each retry after the survivor's Retry-After (when the lease
    // ends), however slow the machine has made the lease.
    webhook: {},
    // While it lives, the doomed instance gets every webhook: the balancer prefers it.
    balancer: 'first',
    leaseMs: LEASE_MS,
    hookMs: 5,
    instances: [
      { name: 'doomed', client: 'ioredis', hang: true },
      { name: 'survivor', client: 'redis' },
    ],
  });
  look = await connectClient('redis', cluster.redis.url);
});

after(async () => {
  await look?.close();
  await cluster?.stop();
});

test(`${CHECKOUTS} hooks cut short by a SIGKILLed instance are completed exactly once by the survivor after the lease`, {
  timeout: scaled(60_000),
}, async () => {
  const c = cluster!;
  const { tally, webhooks } = c;
  const [doomed, survivor] = c.instances as [Instance, Instance];
  const started = performance.now();
  const ids: string[] = [];
  // Paid at the provider: each webhook goes through the balancer to the doomed instance.
  for (let i = 0; i < CHECKOUTS; i += 1) ids.push(await paidCheckout(c, survivor));
  const inDoomed = () =>
    ids.every((id) => tally.started.get(id)?.some((run) => run.instance === 'doomed'));
  await until('the doomed instance to start every hook', inDoomed, 10_000);

  // While the doomed instance holds the claims, the survivor answers the checkout as usual
  // but runs no hook, and tells a webhook to come back.
  for (const id of ids) {
    const poll = await fetch(`${survivor.url}/checkouts/${id}`);
    assert.equal(((await poll.json()) as { status: string }).status, 'PAID');
    const webhook = await postWebhook(survivor, id);
    assert.equal(webhook.status, 503);
    assert.equal(
      ((await webhook.json()) as { error: { code: string } }).error.code,
      'HOOK_RUNNING',
    );
    // What is left of the doomed instance's lease, in whole seconds: the lease itself, or
    // less once a busy machine has taken a second or more since the claim.
    const retryAfter = Number(webhook.headers.get('retry-after'));
    assert.ok(retryAfter >= 1 && retryAfter <= LEASE_MS / 1000, `Retry-After ${retryAfter}`);
  }
  assert.ok(ids.every((id) => !tally.started.get(id)?.some((r) => r.instance === 'survivor')));

  await doomed.kill();
  const killedAt = Date.now();
  // The provider retries its webhooks; the balancer sends them to the survivor now.
  await until('the survivor to finish every hook', () => tally.allFinished(ids), 15_000 + LEASE_MS);
  await until(
    () => `${CHECKOUTS} webhooks acknowledged (${webhooks.acknowledged} were)`,
    () => webhooks.acknowledged >= CHECKOUTS,
    10_000,
  );

  // Each delivery came back when the survivor said its lease ends, not sooner: the test
  // waited on that answer, not on a number of tries.
  const res = await c.sandbox.handle(
    new Request(`${c.sandbox.url}/sandbox/webhook-deliveries`, {
      headers: { authorization: `Bearer ${c.sandbox.apiKey}` },
    }),
  );
  const deliveries = (await res.json()) as Delivery[];
  for (const id of ids) {
    const { state, attempts } = deliveries.find((d) => d.payload.id === id)!;
    const said = JSON.stringify(attempts);
    assert.equal(state, 'delivered', said);
    assert.equal(attempts.at(-1)!.status, 204, said);
    for (const [i, a] of attempts.entries()) {
      if (a.status !== 503) continue;
      assert.ok(a.retryAfter && Number(a.retryAfter) <= LEASE_MS / 1000, said);
      const waited = Date.parse(a.nextAt!) - Date.parse(a.at) - a.durationMs;
      assert.ok(Math.abs(waited - Number(a.retryAfter) * 1000) <= 50, said);
      assert.ok(Date.parse(attempts[i + 1]!.at) >= Date.parse(a.nextAt!), said);
    }
  }

  // Later reports find the hooks done: nothing runs again.
  for (const id of ids) {
    assert.equal((await postWebhook(survivor, id)).status, 204);
    assert.equal((await fetch(`${survivor.url}/checkouts/${id}`)).status, 200);
    const value = String(
      await look!.command('GET', `payment-widget:onPaid:${c.sandbox.merchantCode}:${id}`),
    );
    assert.match(value, /^done:/);
  }

  const counts = tally.counts(ids);
  const takeovers = ids.map((id) => {
    const first = tally.started.get(id)!.find((run) => run.instance === 'doomed')!;
    const second = tally.started.get(id)!.find((run) => run.instance === 'survivor')!;
    return { afterLeaseMs: second.at - first.at, afterKillMs: second.at - killedAt };
  });
  const cutShort = ids.filter(
    (id) =>
      tally.started.get(id)?.some((run) => run.instance === 'doomed') &&
      !tally.finished.get(id)?.some((run) => run.instance === 'doomed'),
  ).length;
  const finishedOnce = ids.filter(
    (id) =>
      tally.finished.get(id)?.length === 1 && tally.finished.get(id)![0]!.instance === 'survivor',
  ).length;
  console.log(
    `redis, instance killed mid-hook: ${ids.length} checkouts, hooks cut short ${cutShort}, completed once ${finishedOnce}, ` +
      `more than once ${ids.filter((id) => (tally.finished.get(id)?.length ?? 0) > 1).length}, never ${counts.never}; ` +
      `taken over ${takeovers.map((t) => t.afterLeaseMs).join('/')} ms after the first start (lease ${LEASE_MS} ms); ` +
      `provider webhook answers ${webhooks.summary()} in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  assert.equal(cutShort, CHECKOUTS);
  assert.equal(finishedOnce, CHECKOUTS);
  for (const id of ids) {
    const runs = tally.started.get(id)!.map((run) => run.instance);
    assert.deepEqual(runs, ['doomed', 'survivor'], `${id}: started on ${runs.join(', ')}`);
  }
  for (const { afterLeaseMs } of takeovers) {
    // The claim is taken over only once its lease ran out, not at the first retry (500 ms
    // after the kill). The margin is the time the doomed instance took between its claim
    // and stamping its start, which a loaded machine stretches as it does the lease.
    assert.ok(afterLeaseMs >= LEASE_MS - scaled(250), `taken over after ${afterLeaseMs} ms`);
  }
  // The survivor says of each that it took over an earlier claim: without it, its runs read
  // in the log as first runs, and an operator could not tell they were second ones.
  assert.deepEqual(
    tally.problems
      .map((p) => `${p.instance} ${p.level} ${p.checkoutId} ${takenOver(p.message)}`)
      .sort(),
    ids.map((id) => `survivor warn ${id} true`).sort(),
  );
});

const takenOver = (message: string) =>
  /^onPaid took over a claim whose lease .* ran out undone/.test(message);
