// The handler's side of the hooks' lease: what the webhook, the poll and the return page
// answer while a hook runs on another instance or the store is down, the
// hooks.leaseMs option, and the warning when a hook outlives it. (test/node/redis runs the
// same against real processes and a real Redis.)
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Sandbox } from '../../../src/sandbox/index.ts';
import { createMemoryStore, type PaymentStore } from '../../../src/server/index.ts';
import { sleep, until } from '../../shared/until.ts';
import { type HeldHook, heldHook } from '../support/held-hook.ts';
import {
  type Harness,
  makeHandler,
  paidAtProvider,
  request,
  startSandbox,
  webhookRequest,
} from './fixtures.ts';

let sb: Sandbox;

before(async () => {
  sb = await startSandbox();
});
after(async () => {
  await sb.close();
});

const webhook = (h: Harness, id: string) => h.handle(webhookRequest(id));

test('while a hook runs on another instance: the webhook gets 503 HOOK_RUNNING, poll and return answer as usual', async () => {
  const store = createMemoryStore();
  const hook = heldHook();
  const busy = makeHandler(sb, { store, hooks: { leaseMs: 2_500, onPaid: hook.run } });
  const other = makeHandler(sb, { store, hooks: { leaseMs: 2_500 } });
  const { id } = await paidAtProvider(sb, busy);
  const running = busy.handle(request('GET', `/checkouts/${id}`));
  await hook.entered;

  const refused = await webhook(other, id);
  assert.equal(refused.status, 503);
  assert.equal((await refused.json()).error.code, 'HOOK_RUNNING');
  const retryAfter = Number(refused.headers.get('retry-after'));
  assert.ok(
    retryAfter >= 1 && retryAfter <= 3,
    `what is left of the lease, in seconds: ${retryAfter}`,
  );
  const poll = await other.handle(request('GET', `/checkouts/${id}`));
  assert.equal(poll.status, 200);
  assert.equal((await poll.json()).status, 'PAID');
  const back = await other.handle(request('GET', `/return?checkout_id=${id}`, { origin: null }));
  assert.equal(back.status, 303);
  assert.equal(back.headers.get('location'), `/result?outcome=success&checkout_id=${id}`);
  assert.equal(other.paid.length, 0);

  hook.finish();
  assert.equal((await running).status, 200);
  assert.equal((await webhook(other, id)).status, 204, 'done: the delivery is acknowledged');
  assert.equal(hook.calls, 1);
});

test("the webhook's Retry-After is what is left of the claim's lease, or the whole lease when the store cannot tell", async () => {
  // The claim of an instance that died with 5 s of its lease left (the handler's is 30 s).
  const store = createMemoryStore();
  const h = makeHandler(sb, { store });
  const { id } = await paidAtProvider(sb, h);
  const key = `onPaid:${sb.merchantCode}:${id}`;
  assert.equal(await store.claim(key, 'dead', 5_000), 'claimed');
  const refused = await webhook(h, id);
  assert.equal(refused.status, 503);
  const left = Number(refused.headers.get('retry-after'));
  assert.ok(left >= 1 && left <= 5, `Retry-After ${left}, the lease ends within 5 s`);
  // The same claims without leaseLeft (a store of the merchant's own): the whole 30 s.
  const { claim, complete, release } = store;
  const plain = makeHandler(sb, { store: { claims: { claim, complete, release } } });
  const told = await webhook(plain, id);
  assert.equal(told.status, 503);
  assert.equal(told.headers.get('retry-after'), '30');
  assert.equal(h.paid.length + plain.paid.length, 0);
});

test('while the store is down: the webhook gets 503 STORE_UNAVAILABLE, the poll answers PAID, no hook runs', async () => {
  const down: PaymentStore = {
    claim: async () => {
      throw new Error('connect ECONNREFUSED 127.0.0.1:6379');
    },
    complete: async () => true,
    release: async () => true,
  };
  const h = makeHandler(sb, { store: down });
  const { id } = await paidAtProvider(sb, h);
  const refused = await webhook(h, id);
  assert.equal(refused.status, 503);
  assert.equal((await refused.json()).error.code, 'STORE_UNAVAILABLE');
  assert.ok(Number(refused.headers.get('retry-after')) > 0);
  const poll = await h.handle(request('GET', `/checkouts/${id}`));
  assert.equal(poll.status, 200);
  assert.equal((await poll.json()).status, 'PAID');
  assert.equal(h.paid.length, 0);
  const logged = h.logs.map((line) => JSON.parse(line) as { level: string; message: string });
  assert.ok(
    logged.some((e) => e.level === 'error' && e.message.includes('the store could not be asked')),
  );
  assert.ok(h.logs.some((line) => line.includes('ECONNREFUSED')));
});

test('hooks.leaseMs must be a positive number', () => {
  for (const leaseMs of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
    assert.throws(() => makeHandler(sb, { hooks: { leaseMs } }), /hooks\.leaseMs/);
  }
});

test('a hook that outlives hooks.leaseMs and was taken over logs a warning that it may have run twice', async () => {
  const store = createMemoryStore();
  // The first run lasts until the test lets it end, however slow the takeover is.
  const hook = heldHook();
  const slow = makeHandler(sb, { store, hooks: { leaseMs: 20, onPaid: hook.run } });
  const { id } = await paidAtProvider(sb, slow);
  const first = slow.handle(request('GET', `/checkouts/${id}`));
  await hook.entered;
  // Past the lease, while the first run still goes on: the next report takes it over.
  await sleep(30);
  assert.equal((await webhook(slow, id)).status, 204);
  // The poll answered without waiting for its hook, which goes on in the background.
  assert.equal((await first).status, 200);
  hook.finish();
  assert.equal(hook.calls, 2);
  await until('the first run to return and warn', () =>
    slow.logs.some((line) => line.includes('may have run twice')),
  );
});

test('without a logger, the console names every checkout whose hook may have run twice, and how long it ran', async (t) => {
  // The README's backend has no logger. Its onPaid outlived the lease on two orders within a
  // minute: each may be fulfilled twice, and the operator must find both in the log.
  const warned = t.mock.method(console, 'warn', () => {});
  const held = new Map<string, HeldHook>();
  const h = makeHandler(sb, {
    store: createMemoryStore(),
    logger: undefined,
    rateLimit: false,
    hooks: { leaseMs: 20, onPaid: (checkout) => held.get(checkout.id)?.run() },
  });
  const ids: string[] = [];
  for (let i = 0; i < 2; i += 1) {
    const { id } = await paidAtProvider(sb, h);
    const hook = heldHook();
    held.set(id, hook);
    ids.push(id);
    // The shopper's poll starts the hook, which stays inside until the test lets it go.
    assert.equal((await h.handle(request('GET', `/checkouts/${id}`))).status, 200);
    await hook.entered;
    // The provider's webhook, redelivered until the lease ran out and it took the claim over.
    await until('the webhook to take the lapsed claim over', async () => {
      const res = await webhook(h, id);
      return res.status === 204;
    });
    assert.equal(hook.calls, 2);
  }
  for (const hook of held.values()) hook.finish();
  const lines = () => warned.mock.calls.map((call) => String(call.arguments[0]));
  for (const id of ids) {
    assert.ok(
      lines().some(
        (line) => /took over a claim .* may have run twice/.test(line) && line.includes(id),
      ),
      `a takeover line names ${id}:\n${lines().join('\n')}`,
    );
  }
  for (const id of ids) {
    await until(`the first run of ${id} to return and say so`, () =>
      lines().some((line) => line.includes('returned after') && line.includes(id)),
    );
    const late = lines().find((line) => line.includes('returned after') && line.includes(id));
    assert.match(
      late ?? '',
      /^payment-widget: onPaid returned after \d+ ms, past its lease \(hooks\.leaseMs, 20 ms\).* may have run twice; set hooks\.leaseMs above your slowest onPaid/,
    );
  }
});
