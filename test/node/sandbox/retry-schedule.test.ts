// When the sandbox tries a webhook again: after the answer's `Retry-After` (seconds, or an
// HTTP date on the answer's own clock) when it has one, else after its backoff, each wait at
// most `maxDelayMs`; by default over 61.5 s, past the handler's default 30 s hook lease, so
// that a retry finds the claim of an instance that died mid-hook free again. Every attempt
// records the `Retry-After` it was answered and when the next one is due, and a restart on
// the data file keeps to it. Driven by the sandbox clock: no test waits out a backoff.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { Clock } from '../../../src/sandbox/simulation/clock.ts';
import { Webhooks } from '../../../src/sandbox/simulation/webhooks.ts';
import type {
  DeliveryAttempt as Attempt,
  DeliveryRecord,
} from '../../../src/sandbox/state/records.ts';
import { Store } from '../../../src/sandbox/state/store.ts';
import { CheckoutSchema } from '../../../src/schemas/index.ts';
import { until } from '../../shared/until.ts';
import { cardBody } from '../support/cards.ts';
import {
  advanceClock,
  checkoutBody,
  expectValid,
  type Harness,
  sandboxAndReceiver,
  startSandbox,
  startWebhookReceiver,
  type WebhookReceiver,
} from './helpers.ts';

/** A delivery of a checkout's event: its payload names the checkout. */
type Delivery = DeliveryRecord & { payload: { id: string } };

/** The handler's default `hooks.leaseMs`. */
const DEFAULT_LEASE_MS = 30_000;

let h: Harness;
let hooks: WebhookReceiver;

/** The only delivery, once it has `count` attempts recorded. */
async function attempted(count: number): Promise<Delivery> {
  let delivery: Delivery | undefined;
  await until(
    () => `attempt ${count} to be recorded: ${JSON.stringify(delivery)}`,
    async () => {
      [delivery] = (await h.api('GET', '/sandbox/webhook-deliveries')).body as Delivery[];
      return (delivery?.attempts.length ?? 0) >= count;
    },
  );
  return delivery!;
}

/** The sandbox time from the end of `a` (its answer) until its next attempt is due. */
const waitAfter = (a: Attempt) => Date.parse(a.nextAt!) - Date.parse(a.at) - a.durationMs;

/**
 * The shared sandbox's delivery after `refusals` answers each retried when its `nextAt`
 * came (the clock moved on to it), then delivered.
 */
async function retriedUntilDelivered(refusals: number): Promise<Delivery> {
  for (let n = 1; n <= refusals; n += 1) {
    const last = (await attempted(n)).attempts[n - 1]!;
    await advanceClock(h, Date.parse(last.nextAt!) - Date.parse(last.at));
  }
  const delivery = await attempted(refusals + 1);
  assert.equal(delivery.state, 'delivered');
  return delivery;
}

/** A checkout paid on `on` (default: the shared sandbox), notifying `to`; its id. */
async function paid(on: Harness = h, to: WebhookReceiver = hooks): Promise<string> {
  const created = await on.api('POST', '/v0.1/checkouts', checkoutBody({ return_url: to.url }));
  const id = expectValid(CheckoutSchema, created.body).id!;
  await on.api('PUT', `/v0.1/checkouts/${id}`, cardBody('4200000000000091'));
  return id;
}

describe('the webhook retry schedule', () => {
  // The defaults: no attempts, delays or cap given.
  sandboxAndReceiver({ webhook: {} }, (started) => {
    ({ h, hooks } = started);
  });

  test('by default 8 tries over 61.5 s of sandbox time, past the default lease, then failed', async () => {
    hooks.replies.push(...Array<number>(8).fill(503));
    await paid();
    const waits: number[] = [];
    for (let n = 1; n < 8; n += 1) {
      const delivery = await attempted(n);
      const last = delivery.attempts[n - 1]!;
      assert.equal(delivery.state, 'pending');
      waits.push(waitAfter(last));
      await advanceClock(h, Date.parse(last.nextAt!) - Date.parse(last.at));
    }
    const delivery = await attempted(8);
    const { attempts } = delivery;
    assert.equal(delivery.state, 'failed');
    assert.equal(attempts.at(-1)!.nextAt, undefined, 'no attempt after the last');
    assert.deepEqual(
      attempts.map((a) => a.status),
      Array<number>(8).fill(503),
    );
    // Each wait is the backoff's, give or take the moments between reading the clock and the answer.
    const backoff = [500, 1_000, 2_000, 4_000, 8_000, 16_000, 30_000];
    for (const [i, wait] of waits.entries())
      assert.ok(Math.abs(wait - backoff[i]!) <= 50, `${waits}`);
    const span = Date.parse(attempts.at(-1)!.at) - Date.parse(attempts[0]!.at);
    assert.ok(span >= 61_500 && span > 2 * DEFAULT_LEASE_MS, `the tries spanned ${span} ms`);
  });

  test('a clock moved while an attempt is out counts toward its wait, and its record still says the wait', async () => {
    let answer!: (status: number) => void;
    hooks.replies.push(new Promise<number>((resolve) => (answer = resolve)));
    await paid();
    await hooks.waitFor(1);
    // Ten seconds pass on the sandbox clock while the merchant takes its time to refuse.
    await advanceClock(h, 10_000);
    answer(503);
    const [first] = (await attempted(1)).attempts as [Attempt];
    assert.equal(first.status, 503);
    // The first backoff, 500 ms after the answer: the record keeps to it (not 10.5 s) ...
    assert.ok(Math.abs(waitAfter(first) - 500) <= 1, `${waitAfter(first)} ms`);
    // ... and the retry, due before the clock's move ended, needs no further move.
    const delivery = await attempted(2);
    assert.equal(delivery.state, 'delivered');
  });

  test("an answer's Retry-After in seconds sets the next wait, at most maxDelayMs, and is recorded", async () => {
    hooks.replies.push(
      { status: 503, headers: { 'retry-after': '20' } },
      // An hour: the sandbox waits its cap, 30 s, instead.
      { status: 503, headers: { 'retry-after': '3600' } },
      // Neither seconds nor a date: the backoff's wait (the third: 2 s).
      { status: 429, headers: { 'retry-after': 'soon' } },
    );
    await paid();
    const delivery = await retriedUntilDelivered(3);
    const [first, second, third, fourth] = delivery.attempts as [
      Attempt,
      Attempt,
      Attempt,
      Attempt,
    ];
    assert.deepEqual(
      delivery.attempts.map((a) => [a.status, a.retryAfter]),
      [
        [503, '20'],
        [503, '3600'],
        [429, 'soon'],
        [204, undefined],
      ],
    );
    for (const [attempt, wait] of [
      [first, 20_000],
      [second, 30_000],
      [third, 2_000],
    ] as const) {
      assert.ok(
        Math.abs(waitAfter(attempt) - wait) <= 50,
        `${attempt.retryAfter}: ${waitAfter(attempt)} ms`,
      );
    }
    assert.equal(fourth.nextAt, undefined);
  });

  test("an answer's Retry-After as an HTTP date counts from the answer's Date, at most maxDelayMs", async () => {
    // The merchant's clock is an hour ahead of the sandbox's machine: only its own Date says
    // how far off its Retry-After is.
    const merchantNow = Math.floor(Date.now() / 1000) * 1000 + 3_600_000;
    const dated = (afterMs: number) => ({
      status: 503,
      headers: {
        date: new Date(merchantNow).toUTCString(),
        'retry-after': new Date(merchantNow + afterMs).toUTCString(),
      },
    });
    // 20 s; an hour (the cap, 30 s, instead); a moment already past (at once).
    hooks.replies.push(dated(20_000), dated(3_600_000), dated(-5_000));
    await paid();
    const delivery = await retriedUntilDelivered(3);
    const waits = delivery.attempts.slice(0, 3).map(waitAfter);
    for (const [i, wait] of [20_000, 30_000, 0].entries())
      assert.ok(Math.abs(waits[i]! - wait) <= 50, `${delivery.attempts[i]!.retryAfter}: ${waits}`);
  });
});

describe('a restart on the data file', () => {
  test('keeps each pending delivery to its schedule: one due while it was down goes at once, one due later at its nextAt', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sandbox-retry-restart-'));
    const dataFile = join(dir, 'data.jsonl');
    const receiver = await startWebhookReceiver();
    const told = { status: 503, headers: { 'retry-after': '20' } };
    const deliveries = async (on: Harness) =>
      (await on.api('GET', '/sandbox/webhook-deliveries')).body as Delivery[];
    const ids = () => receiver.received.map((r) => (r.body as { id: string }).id);
    let first: Harness | undefined = await startSandbox({ webhook: {}, dataFile });
    let second: Harness | undefined;
    try {
      // Due: told to come back in 20 s, which passes; its second try is in flight at shutdown.
      receiver.replies.push(told, 'hold', told);
      const due = await paid(first, receiver);
      await receiver.waitFor(1);
      await until('the first answer to be recorded', async () =>
        (await deliveries(first!)).some((d) => d.attempts[0]?.nextAt !== undefined),
      );
      await advanceClock(first, 20_000);
      await receiver.waitFor(2);
      // Later: told to come back in 20 s, which has not passed at shutdown.
      const later = await paid(first, receiver);
      await receiver.waitFor(3);
      await until('the later one to be told', async () =>
        (await deliveries(first!)).some((d) => d.payload.id === later && d.attempts.length === 1),
      );
      await first.sandbox.close();
      first = undefined;

      second = await startSandbox({ webhook: {}, dataFile });
      await receiver.waitFor(4);
      await until('the due one to be delivered', async () =>
        (await deliveries(second!)).some((d) => d.payload.id === due && d.state === 'delivered'),
      );
      // A payment after the restart is notified; the later one has still not been tried again.
      const after = await paid(second, receiver);
      await receiver.waitFor(5);
      assert.deepEqual(ids(), [due, due, later, due, after]);
      const pending = (await deliveries(second)).find((d) => d.payload.id === later)!;
      assert.equal(pending.state, 'pending');
      assert.equal(pending.attempts.length, 1);
      // Its 20 s pass: it goes out then, not before.
      await advanceClock(second, 20_000);
      await receiver.waitFor(6);
      assert.deepEqual(ids().slice(5), [later]);
      let delivered: Delivery | undefined;
      await until('the later one to be delivered', async () => {
        delivered = (await deliveries(second!)).find((d) => d.payload.id === later);
        return delivered?.state === 'delivered';
      });
      const [told1, retried] = delivered!.attempts as [Attempt, Attempt];
      assert.ok(Date.parse(retried.at) >= Date.parse(told1.nextAt!), JSON.stringify(delivered));
    } finally {
      await first?.sandbox.close();
      await second?.sandbox.close();
      await receiver.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('keeps a delay fault to its end, on the sandbox clock: not at once, not delayMs again', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sandbox-delay-restart-'));
    const dataFile = join(dir, 'data.jsonl');
    const receiver = await startWebhookReceiver();
    const ids = () => receiver.received.map((r) => (r.body as { id: string }).id);
    let first: Harness | undefined = await startSandbox({ webhook: {}, dataFile });
    let second: Harness | undefined;
    try {
      const fault = await first.api('POST', '/sandbox/webhook-faults', {
        kind: 'delay',
        delayMs: 60_000,
      });
      assert.equal(fault.status, 201);
      const held = await paid(first, receiver);
      const [record] = (await first.api('GET', '/sandbox/webhook-deliveries')).body as Delivery[];
      assert.equal(record?.state, 'pending');
      const dueAt = Date.parse(record.due_at!);
      assert.ok(dueAt - Date.parse(record.created_at) >= 60_000, JSON.stringify(record));
      // 20 s of the minute pass before the sandbox stops.
      await advanceClock(first, 20_000);
      await first.sandbox.close();
      first = undefined;

      second = await startSandbox({ webhook: {}, dataFile });
      // 30 s more: 50 s of its minute. A payment now is notified; the held one is not.
      await advanceClock(second, 30_000);
      const after = await paid(second, receiver);
      await receiver.waitFor(1);
      assert.deepEqual(ids(), [after]);
      // The minute ends 10 s later (not 60 s after the restart): it goes out then.
      await advanceClock(second, 10_000);
      await receiver.waitFor(2);
      assert.deepEqual(ids(), [after, held]);
      let delivered: Delivery | undefined;
      await until('the held one to be delivered', async () => {
        const list = (await second!.api('GET', '/sandbox/webhook-deliveries')).body as Delivery[];
        delivered = list.find((d) => d.payload.id === held);
        return delivered?.state === 'delivered';
      });
      assert.ok(Date.parse(delivered!.attempts[0]!.at) >= dueAt, JSON.stringify(delivered));
    } finally {
      await first?.sandbox.close();
      await second?.sandbox.close();
      await receiver.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

test('a delayed delivery is due exactly its delay after it was made, on a machine where each read of the clock is a millisecond later', () => {
  const store = new Store();
  // A busy machine: a millisecond passes between any two readings of the clock.
  let reads = 0;
  const clock = new (class extends Clock {
    override now(): number {
      reads += 1;
      return Date.parse('2026-01-01T00:00:00Z') + reads;
    }
  })(store);
  const webhooks = new Webhooks({ fetch: () => new Promise(() => {}) }, store, clock, () => {});
  store.insert('webhookFaults', { kind: 'delay', delayMs: 60_000, remaining: 1 });
  webhooks.checkoutStatusChanged('https://shop.example/payments/webhook', 'chk_1');
  const [delivery] = store.values('deliveries');
  webhooks.close();
  // Before: 59,999 ms, as the sandbox's own record said in one CI run.
  assert.equal(Date.parse(delivery!.due_at!) - Date.parse(delivery!.created_at), 60_000);
});
