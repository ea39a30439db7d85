// The provider's webhook retries alone fulfil an order whose instance was SIGKILLed in the
// middle of onPaid: no instance reconciles and no shopper polls. The sandbox's backoff here
// gives up within about 1.6 s, far inside the dead instance's lease, as its default schedule
// once gave up inside the default 30 s lease; what carries the delivery past the lease is the
// survivor's 503 with `Retry-After` (when the lease ends), which the sandbox honours.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { scaled, until } from '../../shared/until.ts';
import { type Cluster, type Instance, startCluster } from './cluster.ts';
import { paidCheckout } from './shopper.ts';

/** Whole seconds, as `Retry-After` says them; long enough to outlast the backoff below. */
const LEASE_MS = Math.ceil(scaled(2_000) / 1000) * 1000;

interface Delivery {
  payload: { id?: string };
  state: string;
  attempts: { at: string; status?: number; error?: string; retryAfter?: string }[];
}

describe('a crash mid-onPaid, recovered by the webhook alone', () => {
  let cluster: Cluster | undefined;

  before(async () => {
    cluster = await startCluster({
      // Six tries within 50 + 100 + 200 + 400 + 800 ms: over long before the lease is.
      webhook: { attempts: 6, initialDelayMs: 50 },
      // While it lives, the doomed instance gets every webhook: the balancer prefers it.
      balancer: 'first',
      leaseMs: LEASE_MS,
      hookMs: 5,
      instances: [
        { name: 'doomed', client: 'ioredis', hang: true },
        { name: 'survivor', client: 'redis' },
      ],
    });
  });

  after(async () => {
    await cluster?.stop();
  });

  test('a SIGKILLed instance mid-onPaid: the retried webhook, told when its lease ends, fulfils the order once', {
    timeout: scaled(60_000),
  }, async () => {
    const c = cluster!;
    const { tally, sandbox } = c;
    const [doomed] = c.instances as [Instance, Instance];
    // Paid at the provider: its webhook goes through the balancer to the doomed instance.
    const id = await paidCheckout(c, c.instances[1]!);
    await until('the doomed instance to start onPaid', () =>
      (tally.started.get(id) ?? []).some((run) => run.instance === 'doomed'),
    );
    await doomed.kill();
    const killedAt = Date.now();

    let delivery: Delivery | undefined;
    await until(
      () => `the delivery to settle: ${JSON.stringify(delivery)}`,
      async () => {
        const res = await sandbox.handle(
          new Request(`${sandbox.url}/sandbox/webhook-deliveries`, {
            headers: { authorization: `Bearer ${sandbox.apiKey}` },
          }),
        );
        const list = (await res.json()) as Delivery[];
        delivery = list.find((d) => d.payload.id === id);
        return delivery !== undefined && delivery.state !== 'pending';
      },
      10_000 + LEASE_MS,
    );
    const attempts = delivery!.attempts;
    const told = attempts.filter((a) => a.status === 503);
    console.log(
      `instance killed mid-onPaid, lease ${LEASE_MS} ms: the delivery ${delivery!.state} after ` +
        `${attempts.map((a) => `${a.status ?? a.error}${a.retryAfter ? ` (Retry-After ${a.retryAfter})` : ''}`).join(', ')}; ` +
        `fulfilled ${(tally.finished.get(id) ?? []).length} time(s), ${Date.now() - killedAt} ms after the kill`,
    );
    assert.equal(delivery!.state, 'delivered');
    // The try cut short by the kill (the balancer's 502), the survivor's "come back in the
    // lease's remaining time", then the run that took the claim over.
    assert.equal(attempts[0]!.status, 502);
    assert.ok(told.length >= 1);
    for (const a of told)
      assert.ok(Number(a.retryAfter) >= 1 && Number(a.retryAfter) <= LEASE_MS / 1000);
    assert.equal(attempts.at(-1)!.status, 204);
    assert.ok(attempts.length <= 6);
    assert.deepEqual(
      tally.started.get(id)!.map((run) => run.instance),
      ['doomed', 'survivor'],
    );
    assert.deepEqual(
      tally.finished.get(id)!.map((run) => run.instance),
      ['survivor'],
    );
    const first = tally.started.get(id)![0]!;
    const second = tally.started.get(id)![1]!;
    // Taken over once the lease ran out, not at the first retry after the kill.
    assert.ok(second.at - first.at >= LEASE_MS - scaled(250), `after ${second.at - first.at} ms`);
    // Said once, by the survivor, of this checkout: a run over an earlier claim.
    assert.deepEqual(
      tally.problems.map((p) => [p.instance, p.level, p.checkoutId]),
      [['survivor', 'warn', id]],
    );
    assert.match(
      tally.problems[0]!.message,
      /^onPaid took over a claim whose lease .* may have run twice$/,
    );
  });
});
