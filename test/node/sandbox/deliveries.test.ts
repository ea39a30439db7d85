// Webhook deliveries as data: every notification, with each attempt's answer or error and
// duration, newest first; an attempt unanswered is cut off when the docs say; replaying one
// sends it again; reader results are recorded too.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { CheckoutSchema } from '../../../src/schemas/index.ts';
import { until } from '../../shared/until.ts';
import { cardBody } from '../support/cards.ts';
import {
  checkoutBody,
  expectValid,
  type Harness,
  sandboxAndReceiver,
  startReaderCheckout,
  startWebhookReceiver,
  type WebhookReceiver,
} from './helpers.ts';

interface Attempt {
  at: string;
  status?: number;
  error?: string;
  durationMs: number;
}
interface Delivery {
  id: string;
  url: string;
  payload: Record<string, unknown>;
  state: 'pending' | 'delivered' | 'failed' | 'dropped';
  attempts: Attempt[];
  created_at: string;
  replay_of?: string;
}

let h: Harness;
let hooks: WebhookReceiver;

const deliveries = async () =>
  (await h.api('GET', '/sandbox/webhook-deliveries')).body as Delivery[];

/** Waits until the newest delivery is no longer pending, and returns the list. */
async function settled(): Promise<Delivery[]> {
  let list: Delivery[] = [];
  await until(
    () => `the delivery to settle: ${JSON.stringify(list[0])}`,
    async () => {
      list = await deliveries();
      return list.length > 0 && list[0]!.state !== 'pending';
    },
  );
  return list;
}

async function paidCheckout(returnUrl: string): Promise<string> {
  const created = await h.api('POST', '/v0.1/checkouts', checkoutBody({ return_url: returnUrl }));
  const id = expectValid(CheckoutSchema, created.body).id!;
  await h.api('PUT', `/v0.1/checkouts/${id}`, cardBody('4200000000000091'));
  return id;
}

describe('webhook deliveries', () => {
  sandboxAndReceiver({ readers: { pairingDelayMs: 0 } }, (started) => {
    ({ h, hooks } = started);
  });

  test('each delivery keeps its payload and every attempt: answer, time and duration', async () => {
    hooks.replies.push(500, 503);
    const id = await paidCheckout(hooks.url);
    await hooks.waitFor(3);
    const [delivery] = await settled();
    assert.equal(delivery?.url, hooks.url);
    assert.deepEqual(delivery?.payload, { event_type: 'CHECKOUT_STATUS_CHANGED', id });
    assert.equal(delivery?.state, 'delivered');
    assert.deepEqual(
      delivery?.attempts.map((a) => a.status),
      [500, 503, 204],
    );
    for (const attempt of delivery?.attempts ?? []) {
      assert.ok(attempt.durationMs >= 0);
      assert.ok(Date.parse(attempt.at) >= Date.parse(delivery!.created_at));
    }
  });

  test('an endpoint that refuses connections: attempts name the error, then failed', async () => {
    // A receiver that was closed: its port refuses connections.
    const gone = await startWebhookReceiver();
    await gone.close();
    await paidCheckout(gone.url);
    const [delivery] = await settled();
    assert.equal(delivery?.state, 'failed');
    // startSandbox's harness tries 4 times.
    assert.equal(delivery?.attempts.length, 4);
    for (const a of delivery?.attempts ?? []) {
      assert.equal(a.status, undefined);
      assert.equal(a.error, 'ECONNREFUSED');
    }
  });

  test('an endpoint that never answers: the attempt ends as timeout after the seconds docs/sandbox.md gives', async () => {
    const docs = readFileSync(new URL('../../../docs/sandbox.md', import.meta.url), 'utf8');
    const given = /unanswered after (\d+) s \(real time\) fails as `timeout`/.exec(docs);
    assert.ok(given, 'docs/sandbox.md does not say how long an attempt waits for its answer');
    const limitMs = Number(given[1]) * 1000;
    hooks.replies.push('hold');
    await paidCheckout(hooks.url);
    await hooks.waitFor(2, limitMs + 5_000);
    const [delivery] = await settled();
    const [cut, retried] = delivery!.attempts as [Attempt, Attempt];
    assert.equal(cut.error, 'timeout');
    assert.equal(cut.status, undefined);
    assert.ok(
      cut.durationMs >= limitMs && cut.durationMs < limitMs + 1_000,
      `${cut.durationMs} ms`,
    );
    assert.equal(retried.status, 204);
    assert.equal(delivery!.state, 'delivered');
  });

  test('replay sends the payload again as a new delivery: 202 with it', async () => {
    const id = await paidCheckout(hooks.url);
    await hooks.waitFor(1);
    const [original] = await settled();
    const res = await h.api('POST', `/sandbox/webhook-deliveries/${original!.id}/replay`);
    assert.equal(res.status, 202);
    const replay = res.body as Delivery;
    assert.notEqual(replay.id, original!.id);
    assert.equal(replay.replay_of, original!.id);
    assert.deepEqual(replay.payload, original!.payload);
    await hooks.waitFor(2);
    assert.deepEqual(hooks.received[1]?.body, { event_type: 'CHECKOUT_STATUS_CHANGED', id });
    const list = await settled();
    assert.deepEqual(
      list.map((d) => d.id),
      [replay.id, original!.id],
    );
    h.expectError(
      await h.api('POST', '/sandbox/webhook-deliveries/whd_999/replay'),
      404,
      'NOT_FOUND',
    );
    h.expectError(
      await h.api('POST', `/sandbox/webhook-deliveries/${original!.id}/replay`, undefined, null),
      401,
      'NOT_AUTHORIZED',
    );
  });

  test("a reader checkout's result notification is a delivery too", async () => {
    const { deviceId } = await startReaderCheckout(h, hooks.url);
    await h.api('POST', `/sandbox/devices/${deviceId}/present-card`, {});
    await hooks.waitFor(1);
    const [delivery] = await settled();
    assert.equal(delivery?.payload.event_type, 'solo.transaction.updated');
    assert.equal(delivery?.state, 'delivered');
  });

  test('a reset forgets the deliveries', async () => {
    await paidCheckout(hooks.url);
    await hooks.waitFor(1);
    await settled();
    await h.api('POST', '/sandbox/reset');
    assert.deepEqual(await deliveries(), []);
  });
});
