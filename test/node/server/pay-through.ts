// What the widget, the issuer's page and the provider send a handler mounted in a framework
// (Fastify, NestJS): a checkout made and paid with a card, its webhook, a 3-D Secure card
// completed on the sandbox's page and the full-page return through the mount.
import assert from 'node:assert/strict';
import { cardBody } from '../support/cards.ts';
import { type Harness, ORIGIN } from './fixtures.ts';

const json = { origin: ORIGIN, 'content-type': 'application/json' };

interface Answer {
  id: string;
  status: string;
  next_step?: { url: string; payload?: Record<string, string> };
}

async function create(base: string): Promise<string> {
  const created = await fetch(`${base}/payments/checkouts`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ order: { sku: 'tea' } }),
  });
  assert.equal(created.status, 201, await created.clone().text());
  return ((await created.json()) as Answer).id;
}

function pay(base: string, id: string, card: string): Promise<Response> {
  return fetch(`${base}/payments/checkouts/${id}`, {
    method: 'PUT',
    headers: json,
    body: JSON.stringify(cardBody(card)),
  });
}

/** A card paid, its webhook answered, `onPaid` run once; the handler's 400 names a field. */
export async function payWithCard(base: string, h: Harness): Promise<void> {
  const id = await create(base);
  const paid = await pay(base, id, '4200000000000091');
  assert.equal(paid.status, 200, await paid.clone().text());
  assert.equal(((await paid.json()) as Answer).status, 'PAID');
  // As the provider sends it: no Origin, JSON.
  const hook = await fetch(`${base}/payments/webhook`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ event_type: 'CHECKOUT_STATUS_CHANGED', id }),
  });
  assert.equal(hook.status, 204, await hook.text());
  assert.deepEqual(
    h.paid.map((c) => c.id),
    [id],
  );
  const empty = await fetch(`${base}/payments/checkouts`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({}),
  });
  assert.equal(empty.status, 400);
  assert.equal(((await empty.json()) as { error: { field: string } }).error.field, 'order');
}

/**
 * A 3-D Secure card: the challenge's answer posted as the issuer's page does, and the
 * shopper's page sent back through the mount's `/return` to the result page.
 */
export async function payWith3ds(base: string): Promise<void> {
  const id = await create(base);
  const answer = await pay(base, id, '4200000000000042');
  assert.equal(answer.status, 202, await answer.clone().text());
  const step = ((await answer.json()) as Answer).next_step;
  assert.ok(step?.payload?.TermUrl);
  const issuer = await fetch(step.payload.TermUrl, {
    method: 'POST',
    body: new URLSearchParams({ MD: step.payload.MD ?? '', PaRes: 'Y' }),
    redirect: 'manual',
  });
  assert.equal(issuer.status, 303);
  // The checkout's redirect_url is the handler's publicUrl: the same path on this server.
  const back = new URL(issuer.headers.get('location') ?? '');
  assert.equal(back.pathname, '/payments/return');
  const result = await fetch(`${base}${back.pathname}${back.search}`, { redirect: 'manual' });
  assert.equal(result.status, 303, await result.text());
  assert.equal(result.headers.get('location'), `/result?outcome=success&checkout_id=${id}`);
  const confirmed = await fetch(`${base}/payments/checkouts/${id}`);
  assert.equal(((await confirmed.json()) as Answer).status, 'PAID');
}
