// Reconciliation's sweep of the provider's own checkout list (src/server/outcomes/sweep.ts), on
// one real Redis: what the open set lost (its key deleted here, as an old primary takes what it
// never passed on) is found past the watermark and reported through the same claims; other
// handlers' checkouts are not; a batch is bounded; the watermark waits for a store that fails,
// and it starts when the handler is made.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Sandbox } from '../../../src/sandbox/index.ts';
import {
  type CompleteStore,
  createProviderClient,
  type PaymentStore,
  type ProviderClient,
} from '../../../src/server/index.ts';
import { createCheckout, type Harness, makeHandler, startSandbox } from '../server/fixtures.ts';
import { cardBody } from '../support/cards.ts';
import { type ConnectedClient, connectClient, testRedisStore } from '../support/redis-clients.ts';
import { type RedisServer, startRedisServer } from '../support/redis-server.ts';

let redis: RedisServer;
let sb: Sandbox;
let connected: ConnectedClient;
let provider: ProviderClient;

before(async () => {
  redis = await startRedisServer();
  sb = await startSandbox();
  connected = await connectClient('ioredis', redis.url);
  provider = createProviderClient({ baseUrl: sb.url, apiKey: sb.apiKey });
});

after(async () => {
  await connected?.close();
  await sb?.close();
  await redis?.stop();
});

let n = 0;
/** A handler on its own keys (no watermark yet), and how to make its open set forget. */
function handlerWithOwnKeys(wrap: (store: CompleteStore) => PaymentStore = (s) => s) {
  n += 1;
  const prefix = `sweep-${n}:`;
  const h = makeHandler(sb, { store: wrap(testRedisStore(connected.client, { prefix })) });
  return {
    h,
    prefix,
    /** The open set is lost, as with an old primary that never passed it on. */
    loseOpenSet: () => connected.command('DEL', `${prefix}open:{${sb.merchantCode}}`),
    watermark: () => connected.command('GET', `${prefix}sweep:{${sb.merchantCode}}`),
  };
}

/** Created through the handler, paid at the provider: no report reaches the handler. */
async function paidBehind(h: Harness): Promise<string> {
  const { id } = await createCheckout(h);
  const paid = await provider.checkouts.process(id, cardBody('4200000000000091'));
  assert.equal(paid.kind === 'checkout' && paid.checkout.status, 'PAID');
  return id;
}

test('a paid checkout the open set lost is found in the provider’s list: onPaid once', async () => {
  // Paid through a handler made earlier (the same return_url): older than this handler.
  const before = await paidBehind(makeHandler(sb));
  // The watermark starts when the handler is made: nothing older is looked at.
  const { h, loseOpenSet } = handlerWithOwnKeys();
  await loseOpenSet();
  assert.equal((await h.handle.reconcile()).ran, 0);
  const id = await paidBehind(h);
  await loseOpenSet();
  const report = await h.handle.reconcile();
  assert.equal(report.ran, 1);
  assert.equal(report.swept, 1);
  assert.deepEqual(
    h.paid.map((c) => c.id),
    [id],
  );
  assert.ok(!h.paid.some((c) => c.id === before), 'older than the first sweep: not swept');
  // Found again on the next call (the watermark stays behind the present), never run again.
  assert.equal((await h.handle.reconcile()).ran, 0);
  assert.equal(h.paid.length, 1);
});

test('another handler’s checkout (another return_url) is never reported', async () => {
  const { h } = handlerWithOwnKeys();
  await h.handle.reconcile();
  const foreign = await provider.checkouts.create({
    checkout_reference: crypto.randomUUID(),
    amount: 10,
    currency: 'EUR',
    merchant_code: sb.merchantCode,
    return_url: 'https://elsewhere.example/webhook',
  });
  await provider.checkouts.process(foreign.id!, cardBody('4200000000000091'));
  const report = await h.handle.reconcile();
  assert.equal(report.swept, 0);
  assert.deepEqual(h.paid, []);
});

test('a pending checkout found in the list joins the open set, which runs its hook once paid', async () => {
  const { h, prefix, loseOpenSet } = handlerWithOwnKeys();
  await h.handle.reconcile();
  const { id } = await createCheckout(h);
  await loseOpenSet();
  assert.equal((await h.handle.reconcile()).swept, 1);
  const score = await connected.command('ZSCORE', `${prefix}open:{${sb.merchantCode}}`, id);
  assert.ok(Number(score) > 0, 'back in the open set');
  await provider.checkouts.process(id, cardBody('4200000000000091'));
  const report = await h.handle.reconcile();
  assert.equal(report.ran, 1);
  assert.deepEqual(
    h.paid.map((c) => c.id),
    [id],
  );
});

test('one call handles at most limit checkouts of the list; the rest come on the next', async () => {
  const { h, loseOpenSet } = handlerWithOwnKeys();
  await h.handle.reconcile();
  const ids = [await paidBehind(h), await paidBehind(h), await paidBehind(h)];
  await loseOpenSet();
  const first = await h.handle.reconcile({ limit: 2 });
  assert.deepEqual([first.swept, first.ran], [2, 2]);
  const second = await h.handle.reconcile({ limit: 2 });
  assert.equal(second.ran, 1);
  assert.deepEqual(h.paid.map((c) => c.id).sort(), [...ids].sort());
  await assert.rejects(h.handle.reconcile({ limit: 0 }), /limit must be a whole number/);
});

test('claims that fail keep the watermark where it was: the checkouts are found once they work', async () => {
  let down = false;
  const { h, loseOpenSet, watermark } = handlerWithOwnKeys((store) => ({
    ...store,
    claim: (key, token, leaseMs) =>
      down ? Promise.reject(new Error('Redis is not connected')) : store.claim(key, token, leaseMs),
  }));
  await h.handle.reconcile();
  const start = await watermark();
  down = true;
  const id = await paidBehind(h);
  await loseOpenSet();
  const failed = await h.handle.reconcile();
  assert.deepEqual([failed.ran, failed.swept], [0, 0]);
  assert.equal(await watermark(), start);
  down = false;
  assert.equal((await h.handle.reconcile()).ran, 1);
  assert.deepEqual(
    h.paid.map((c) => c.id),
    [id],
  );
});

test('a provider list that cannot be read is an error of the call; the next call reads it', async () => {
  let refuse = false;
  const listing = (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (refuse && url.pathname === '/v0.1/checkouts' && (init?.method ?? 'GET') === 'GET') {
      return Promise.resolve(new Response('{"message":"down"}', { status: 503 }));
    }
    return fetch(input, init);
  };
  n += 1;
  const h = makeHandler(sb, {
    provider: { fetch: listing, retries: 0 },
    store: testRedisStore(connected.client, { prefix: `sweep-${n}:` }),
  });
  await h.handle.reconcile();
  refuse = true;
  const failed = await h.handle.reconcile();
  assert.equal(failed.errors, 1);
  assert.ok(h.logs.some((line) => line.includes('list could not be read')));
  refuse = false;
  assert.equal((await h.handle.reconcile()).errors, 0);
});

test('a store without records (read, swap, write, remove): no sweep, and the log says so once', async () => {
  const { h } = handlerWithOwnKeys(
    ({ read: _read, swap: _swap, write: _write, remove: _remove, ...store }) => store,
  );
  await h.handle.reconcile();
  assert.equal((await h.handle.reconcile()).swept, 0);
  const warnings = h.logs.filter((line) => line.includes('keeps no records'));
  assert.equal(warnings.length, 1);
});
