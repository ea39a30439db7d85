// What shoppers, the provider and its webhooks do to a cluster of handler instances
// (cluster.ts): checkouts created, paid, challenged or paid behind the handler's back, webhooks
// posted or dropped, and one checkout reported to every instance at once.
import assert from 'node:assert/strict';
import { authenticate, type ChallengePayload, cardBody } from '../support/cards.ts';
import { type Cluster, type Instance, ORIGIN } from './cluster.ts';

const PAID_CARD = cardBody('4200000000000091');

/** A checkout created through `instance` (its webhook and return URLs are the balancer's). */
export async function createThrough(instance: Instance): Promise<string> {
  const created = await fetch(`${instance.url}/checkouts`, {
    method: 'POST',
    headers: { origin: ORIGIN, 'content-type': 'application/json' },
    body: JSON.stringify({ order: 'tea' }),
  });
  assert.equal(created.status, 201);
  return ((await created.json()) as { id: string }).id;
}

/** A checkout created through `instance` and paid at the provider: no report has run a hook. */
export async function paidCheckout(cluster: Cluster, instance: Instance): Promise<string> {
  const id = await createThrough(instance);
  const paid = await cluster.provider.checkouts.process(id, PAID_CARD);
  assert.equal(paid.kind === 'checkout' && paid.checkout.status, 'PAID');
  return id;
}

/** The provider's notification, as the test sends it straight to one instance. */
export function postWebhook(instance: Instance, id: string): Promise<Response> {
  return fetch(`${instance.url}/webhook`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ event_type: 'CHECKOUT_STATUS_CHANGED', id }),
  });
}

/**
 * A checkout created and processed with a 3DS card through `instance`, as a shopper's widget
 * does: it waits at its challenge, whose form payload is returned (see `authenticate`).
 */
export async function challengedCheckout(
  instance: Instance,
): Promise<{ id: string; challenge: ChallengePayload }> {
  const id = await createThrough(instance);
  const put = await fetch(`${instance.url}/checkouts/${id}`, {
    method: 'PUT',
    headers: { origin: ORIGIN, 'content-type': 'application/json' },
    body: JSON.stringify(cardBody('4200000000000042')),
  });
  assert.equal(put.status, 202);
  const { next_step } = (await put.json()) as { next_step: { payload: ChallengePayload } };
  return { id, challenge: next_step.payload };
}

/**
 * `count` 3DS checkouts processed through the instances in turn and authenticated at the
 * provider with no browser following the redirect back: paid, and no report reaches the
 * handler. Resolves with when each was paid.
 */
export async function paidBehind(
  instances: readonly Instance[],
  count: number,
): Promise<Map<string, number>> {
  const paidAt = new Map<string, number>();
  for (let i = 0; i < count; i += 1) {
    const { id, challenge } = await challengedCheckout(instances[i % instances.length]!);
    await authenticate(challenge);
    paidAt.set(id, Date.now());
  }
  return paidAt;
}

/** A checkout created and paid with a card through `instance`, as a shopper's widget does. */
export async function paidThrough(instance: Instance): Promise<string> {
  const id = await createThrough(instance);
  const put = await fetch(`${instance.url}/checkouts/${id}`, {
    method: 'PUT',
    headers: { origin: ORIGIN, 'content-type': 'application/json' },
    body: JSON.stringify(PAID_CARD),
  });
  // The payment's answer never depends on the store: PAID even while it is away.
  assert.equal(put.status, 200, `PUT ${id}: ${put.status}`);
  assert.equal(((await put.json()) as { status: string }).status, 'PAID');
  return id;
}

/**
 * The sandbox drops (never sends) its next `times` webhook deliveries, or, with `times` 0,
 * forgets the faults still to apply.
 */
export async function dropWebhooks(cluster: Cluster, times: number): Promise<void> {
  const { sandbox } = cluster;
  const res = await sandbox.handle(
    new Request(`${sandbox.url}/sandbox/webhook-faults`, {
      method: times === 0 ? 'DELETE' : 'POST',
      headers: { authorization: `Bearer ${sandbox.apiKey}`, 'content-type': 'application/json' },
      ...(times === 0 ? {} : { body: JSON.stringify({ kind: 'drop', times }) }),
    }),
  );
  assert.equal(res.status, times === 0 ? 204 : 201);
}

/**
 * Reports `id` to each of `instances` at once by the return page, the webhook and polling,
 * and checks each answer. Resolves with how many reported webhooks were told to come back
 * (503 `HOOK_RUNNING`: another report held the claim).
 */
export async function reportEverywhere(
  instances: readonly Instance[],
  id: string,
): Promise<number> {
  let busy = 0;
  const reports = instances.flatMap((instance) => [
    fetch(`${instance.url}/return?checkout_id=${id}`, { redirect: 'manual' }).then(async (res) => {
      await res.body?.cancel();
      assert.equal(res.status, 303);
      assert.equal(res.headers.get('location'), `/paid?checkout_id=${id}`);
    }),
    postWebhook(instance, id).then(async (res) => {
      if (res.status === 503) {
        const body = (await res.json()) as { error: { code: string } };
        assert.equal(body.error.code, 'HOOK_RUNNING');
        busy += 1;
        return;
      }
      await res.body?.cancel();
      assert.equal(res.status, 204);
    }),
    fetch(`${instance.url}/checkouts/${id}`).then(async (res) => {
      assert.equal(res.status, 200);
      assert.equal(((await res.json()) as { status: string }).status, 'PAID');
    }),
  ]);
  await Promise.all(reports);
  return busy;
}
