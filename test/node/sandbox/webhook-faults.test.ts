// Webhook faults seen from a real receiver: drop (never sent), duplicate (sent twice), delay
// (not before delayMs, and at once when the clock moves past it) and reorder (the second
// checkout's notification arrives first). Bad fault bodies are 400s naming the field.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { CheckoutSchema } from '../../../src/schemas/index.ts';
import { until } from '../../shared/until.ts';
import { cardBody } from '../support/cards.ts';
import {
  checkoutBody,
  expectValid,
  type Harness,
  sandboxAndReceiver,
  type WebhookReceiver,
} from './helpers.ts';

interface Delivery {
  id: string;
  url: string;
  payload: { id?: string };
  state: string;
  fault?: string;
  duplicate_of?: string;
  attempts: { at: string; status?: number; durationMs: number }[];
}

let h: Harness;
let hooks: WebhookReceiver;

/** A checkout that notifies the receiver. */
async function checkout(): Promise<string> {
  const created = await h.api('POST', '/v0.1/checkouts', checkoutBody({ return_url: hooks.url }));
  return expectValid(CheckoutSchema, created.body).id!;
}

async function pay(id: string): Promise<void> {
  const res = await h.api('PUT', `/v0.1/checkouts/${id}`, cardBody('4200000000000091'));
  assert.equal((res.body as { status?: string }).status, 'PAID');
}

async function addFault(body: Record<string, unknown>) {
  const res = await h.api('POST', '/sandbox/webhook-faults', body);
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body as { id: string; kind: string; remaining: number; delayMs: number };
}

const deliveries = async () =>
  (await h.api('GET', '/sandbox/webhook-deliveries')).body as Delivery[];
const receivedIds = () => hooks.received.map((r) => (r.body as { id: string }).id);

describe('webhook faults at a real receiver', () => {
  sandboxAndReceiver({}, (started) => {
    ({ h, hooks } = started);
  });

  test('drop: the notification is never sent; the delivery says dropped', async () => {
    await addFault({ kind: 'drop' });
    const dropped = await checkout();
    await pay(dropped);
    const [delivery] = await deliveries();
    assert.equal(delivery?.state, 'dropped');
    assert.equal(delivery?.fault, 'drop');
    assert.deepEqual(delivery?.attempts, []);
    // The fault was used up: the next checkout's notification arrives, and it is the only one.
    const next = await checkout();
    await pay(next);
    await hooks.waitFor(1);
    assert.deepEqual(receivedIds(), [next]);
  });

  test('duplicate: the receiver gets the same notification twice', async () => {
    await addFault({ kind: 'duplicate' });
    const id = await checkout();
    await pay(id);
    await hooks.waitFor(2);
    assert.deepEqual(
      hooks.received.map((r) => r.body),
      [
        { event_type: 'CHECKOUT_STATUS_CHANGED', id },
        { event_type: 'CHECKOUT_STATUS_CHANGED', id },
      ],
    );
    const [copy, original] = await deliveries();
    assert.equal(copy?.duplicate_of, original?.id);
    assert.equal(original?.fault, 'duplicate');
  });

  test('delay: the notification arrives no sooner than delayMs', async () => {
    await addFault({ kind: 'delay', delayMs: 300 });
    const id = await checkout();
    const paidAt = Date.now();
    await pay(id);
    await hooks.waitFor(1);
    const waited = hooks.received[0]!.at - paidAt;
    assert.ok(waited >= 300, `arrived after ${waited} ms`);
    assert.deepEqual(receivedIds(), [id]);
  });

  test('delay: moving the clock past delayMs sends it at once', async () => {
    await addFault({ kind: 'delay', delayMs: 600_000 });
    const id = await checkout();
    await pay(id);
    const [held] = await deliveries();
    assert.equal(held?.state, 'pending');
    assert.deepEqual(held?.attempts, []);
    assert.equal((await h.api('POST', '/sandbox/clock', { advanceMs: 600_000 })).status, 200);
    await hooks.waitFor(1);
    assert.deepEqual(receivedIds(), [id]);
    await until('the delivery to be recorded as delivered', async () => {
      const [d] = await deliveries();
      return d?.state === 'delivered' && d.attempts[0]?.status === 204;
    });
  });

  test("reorder: the second checkout's notification arrives first", async () => {
    await addFault({ kind: 'reorder' });
    const first = await checkout();
    const second = await checkout();
    await pay(first);
    await pay(second);
    await hooks.waitFor(2);
    assert.deepEqual(receivedIds(), [second, first]);
  });

  test('times: a fault applies to that many deliveries, then they flow again', async () => {
    const fault = await addFault({ kind: 'drop', times: 2 });
    assert.equal(fault.remaining, 2);
    const listed = (await h.api('GET', '/sandbox/webhook-faults')).body as { id: string }[];
    assert.deepEqual(
      listed.map((f) => f.id),
      [fault.id],
    );
    const ids = [await checkout(), await checkout(), await checkout()];
    for (const id of ids) await pay(id);
    await hooks.waitFor(1);
    assert.deepEqual(receivedIds(), [ids[2]]);
    assert.deepEqual((await h.api('GET', '/sandbox/webhook-faults')).body, []);
    let states: string[] = [];
    await until(
      () => `delivered, dropped, dropped; saw ${states}`,
      async () => {
        states = (await deliveries()).map((d) => d.state);
        return states.join() === 'delivered,dropped,dropped';
      },
    );
  });

  test('DELETE clears the faults: the next notification is sent as usual', async () => {
    await addFault({ kind: 'drop', times: 5 });
    assert.equal((await h.api('DELETE', '/sandbox/webhook-faults')).status, 204);
    assert.deepEqual((await h.api('GET', '/sandbox/webhook-faults')).body, []);
    const id = await checkout();
    await pay(id);
    await hooks.waitFor(1);
    assert.deepEqual(receivedIds(), [id]);
  });

  test('bad bodies are 400 naming the field; faults need the key', async () => {
    h.expectError(await h.api('POST', '/sandbox/webhook-faults', {}), 400, 'MISSING', 'kind');
    h.expectError(
      await h.api('POST', '/sandbox/webhook-faults', { kind: 'explode' }),
      400,
      'INVALID',
      'kind',
    );
    for (const times of [0, 10_001, 1.5, '2']) {
      h.expectError(
        await h.api('POST', '/sandbox/webhook-faults', { kind: 'drop', times }),
        400,
        'INVALID',
        'times',
      );
    }
    for (const delayMs of [-1, 600_001]) {
      h.expectError(
        await h.api('POST', '/sandbox/webhook-faults', { kind: 'delay', delayMs }),
        400,
        'INVALID',
        'delayMs',
      );
    }
    h.expectError(await h.api('POST', '/sandbox/webhook-faults', '{'), 400, 'INVALID', 'body');
    h.expectError(
      await h.api('POST', '/sandbox/webhook-faults', { kind: 'drop' }, null),
      401,
      'NOT_AUTHORIZED',
    );
    const defaults = await addFault({ kind: 'delay' });
    assert.equal(defaults.remaining, 1);
    assert.equal(defaults.delayMs, 1_000);
  });
});
