// One id from the shopper's browser to the provider: the handler keeps a short X-Request-Id
// (the widget sends one per call), replaces anything else, answers with it, logs it, and
// sends it with every provider call the request makes, where the sandbox's request log
// finds it.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Sandbox } from '../../../src/sandbox/index.ts';
import { cardBody } from '../support/cards.ts';
import { createCheckout, makeHandler, request, startSandbox } from './fixtures.ts';

let sb: Sandbox;
before(async () => {
  sb = await startSandbox();
});
after(async () => {
  await sb.close();
});

/** The sandbox's request log, filtered by id (its own control route, under its key). */
async function providerCalls(id: string): Promise<{ method: string; path: string }[]> {
  const response = await fetch(`${sb.url}/sandbox/requests?request_id=${id}`, {
    headers: { authorization: `Bearer ${sb.apiKey}` },
  });
  assert.equal(response.status, 200);
  return (await response.json()) as { method: string; path: string }[];
}

test('a short token is kept, answered, logged, and found at the provider', async () => {
  const h = makeHandler(sb);
  const { id } = await createCheckout(h);
  const pay = request('PUT', `/checkouts/${id}`, { body: cardBody('4200000000000091') });
  pay.headers.set('x-request-id', 'shop-42.pay:1');
  const res = await h.handle(pay);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('x-request-id'), 'shop-42.pay:1');
  // Added after the route as the id is: the page's CORS headers stay beside it.
  assert.equal(res.headers.get('access-control-allow-origin'), 'https://shop.example');
  assert.equal(res.headers.get('vary'), 'origin');
  const calls = await providerCalls('shop-42.pay:1');
  assert.deepEqual(
    calls.map((c) => `${c.method} ${c.path}`),
    [`PUT /v0.1/checkouts/${id}`],
  );
  const logged = h.logs.map((line) => JSON.parse(line) as { message: string; requestId?: string });
  assert.ok(logged.some((e) => e.message === 'request' && e.requestId === 'shop-42.pay:1'));
});

test('anything else is replaced by a new id, which the provider gets too', async () => {
  const h = makeHandler(sb);
  const { id } = await createCheckout(h);
  for (const bad of ['x'.repeat(65), 'two words', 'quote"d', '']) {
    const read = request('GET', `/checkouts/${id}`);
    if (bad !== '') read.headers.set('x-request-id', bad);
    const res = await h.handle(read);
    const given = res.headers.get('x-request-id') ?? '';
    assert.match(given, /^[0-9a-z]+-[0-9a-z]+$/, `${JSON.stringify(bad)} was replaced`);
    assert.deepEqual(
      (await providerCalls(given)).map((c) => c.path),
      [`/v0.1/checkouts/${id}`],
    );
  }
});

test('error answers carry the id too', async () => {
  const h = makeHandler(sb);
  const none = request('GET', '/no-such-route');
  none.headers.set('x-request-id', 'lost-1');
  const res = await h.handle(none);
  assert.equal(res.status, 404);
  assert.equal(res.headers.get('x-request-id'), 'lost-1');
  assert.equal((await res.json()).error.code, 'NOT_FOUND');
});
