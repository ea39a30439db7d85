// Reconciliation on one instance (the memory store): the checkouts the handler created or
// processed are read again until their outcome hook has run, for when every webhook was lost
// and the shopper never came back. (test/node/redis/reconcile.test.ts runs it on two
// instances sharing one Redis.)
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Sandbox } from '../../../src/sandbox/index.ts';
import { type ClaimStore, createMemoryStore, type WatchStore } from '../../../src/server/index.ts';
import { scaled, sleep, until } from '../../shared/until.ts';
import { authenticate, type ChallengePayload, cardBody } from '../support/cards.ts';
import { createCheckout, type Harness, makeHandler, request, startSandbox } from './fixtures.ts';

let sb: Sandbox;
before(async () => {
  sb = await startSandbox();
});
after(async () => {
  await sb.close();
});

/**
 * The hooks' lease, which is also how long reconciliation holds a checkout it read before
 * reading it again: waited out to see that a checkout left the set rather than being held.
 * A hook's run must end within it (else another instance takes it over and runs it again),
 * so it is an idle machine's 100 ms scaled to this one's load (test/shared/time-scale.mjs).
 */
const HOLD_MS = scaled(100);

/**
 * A card with 3DS paid through `h` as far as the challenge, then authenticated at the
 * provider with no browser following the redirect: no report reaches the handler (the
 * sandbox's webhooks go to a port where nothing listens).
 */
async function paidBehindTheHandler(h: Harness): Promise<string> {
  const { id } = await createCheckout(h, { sku: 'tea', redirect: false });
  const res = await h.handle(
    request('PUT', `/checkouts/${id}`, { body: cardBody('4200000000000042') }),
  );
  assert.equal(res.status, 202);
  const { next_step } = (await res.json()) as { next_step: { payload: ChallengePayload } };
  await authenticate(next_step.payload);
  return id;
}

test('a paid checkout no report reached: reconcile runs onPaid once, then forgets it', async () => {
  const h = makeHandler(sb, { hooks: { leaseMs: HOLD_MS } });
  const id = await paidBehindTheHandler(h);
  assert.equal(h.paid.length, 0, 'nothing told the handler yet');

  const first = await h.handle.reconcile();
  assert.equal(first.ran, 1);
  assert.deepEqual(
    h.paid.map((c) => c.id),
    [id],
  );
  // The checkout left the set: a second pass, once a checkout still in it would be due again,
  // has nothing to read, and the hook does not run again.
  await sleep(HOLD_MS);
  const { swept, ...second } = await h.handle.reconcile();
  assert.deepEqual(second, { checked: 0, ran: 0, open: 0, closed: 0, errors: 0 });
  // The provider's list still shows it within the sweep's settle window: read again, and done.
  assert.ok(swept <= 1, `${swept} swept`);
  assert.equal(h.paid.length, 1);
});

test('a slow onPaid holds back no other order: the next ones run beside it, the call waits', async () => {
  // The first hook waits until the test lets it go (an ERP call that hangs); the others return.
  let letGo = () => {};
  const held = new Promise<void>((resolve) => {
    letGo = resolve;
  });
  const started: string[] = [];
  let running = 0;
  let most = 0;
  const h = makeHandler(sb, {
    hooks: {
      leaseMs: 60_000,
      async onPaid(checkout) {
        started.push(checkout.id);
        running += 1;
        most = Math.max(most, running);
        if (started.length === 1) await held;
        running -= 1;
      },
    },
  });
  const ids = [];
  for (let i = 0; i < 5; i += 1) ids.push(await paidBehindTheHandler(h));
  let answered = false;
  const call = h.handle.reconcile().finally(() => {
    answered = true;
  });
  await until(
    () => `every onPaid to start while the first is held (started: ${started.length})`,
    () => started.length === ids.length,
  );
  // The call answers once the hooks it started have ended: the first has not.
  assert.equal(answered, false);
  letGo();
  const report = await call;
  assert.equal(report.ran, ids.length);
  assert.deepEqual([...started].sort(), [...ids].sort());
  // A few at once, not one per order: HOOKS_AT_ONCE (reconcile.ts) for the watchlist.
  assert.ok(most <= 4, `${most} hooks at once`);
});

test('a checkout still pending is read on every pass and stays open; a created one waits', async () => {
  const h = makeHandler(sb, { hooks: { leaseMs: 60_000 } });
  const { id } = await createCheckout(h);
  // Only created: not due before the hook's lease has passed (most carts are abandoned).
  assert.equal((await h.handle.reconcile()).checked, 0);
  // Being paid: due at once, and read again on the next pass while it stays pending.
  const put = await h.handle(
    request('PUT', `/checkouts/${id}`, { body: cardBody('4200000000000042') }),
  );
  assert.equal(put.status, 202);
  for (let pass = 0; pass < 2; pass += 1) {
    const { swept, ...report } = await h.handle.reconcile();
    assert.deepEqual(report, { checked: 1, ran: 0, open: 1, closed: 0, errors: 0 });
    // The provider's list shows it too (recent, pending): the sweep leaves it in the open set.
    assert.ok(swept <= 1, `${swept} swept`);
  }
});

test('the hook that already ran elsewhere is not run again; the checkout is forgotten', async () => {
  const store = createMemoryStore();
  const a = makeHandler(sb, { store, hooks: { leaseMs: HOLD_MS } });
  const b = makeHandler(sb, { store, hooks: { leaseMs: HOLD_MS } });
  const id = await paidBehindTheHandler(a);
  // The shopper's page confirms on instance b: its hook runs there, in the background.
  assert.equal((await b.handle(request('GET', `/checkouts/${id}`))).status, 200);
  await until('onPaid to run on b', () => b.paid.length === 1);
  const report = await a.handle.reconcile();
  assert.equal(report.ran, 0);
  assert.equal(a.paid.length + b.paid.length, 1);
  // Forgotten (by b once its hook ran, or by a finding it done): once a checkout still in the
  // set would be due again, nothing is left to read.
  await sleep(HOLD_MS);
  const { swept, ...next } = await a.handle.reconcile();
  assert.deepEqual(next, { checked: 0, ran: 0, open: 0, closed: 0, errors: 0 });
  assert.ok(swept <= 1, `${swept} swept`);
  assert.equal(a.paid.length + b.paid.length, 1);
});

test('a checkout taken as the store went away is read again on the next call, not after the hold', async () => {
  // The memory store's claims and open set, without its records: no sweep of the provider's
  // list finds the checkout again (as for one the sweep passed while it was pending), so only
  // the open set brings it back. Its claims fail while `away`, as a Redis that stopped between
  // the take and the claim.
  const memory = createMemoryStore();
  let away = false;
  const store: ClaimStore & WatchStore = {
    claim: (...args) =>
      away ? Promise.reject(new Error('the store went away')) : memory.claim(...args),
    complete: (...args) => memory.complete(...args),
    release: (...args) => memory.release(...args),
    watch: (...args) => memory.watch(...args),
    due: (...args) => memory.due(...args),
    unwatch: (...args) => memory.unwatch(...args),
  };
  // A lease far past the test: before, the checkout waited all of it.
  const h = makeHandler(sb, { store, hooks: { leaseMs: 10 * 60_000 } });
  const id = await paidBehindTheHandler(h);

  away = true;
  const first = await h.handle.reconcile();
  assert.deepEqual(first, { checked: 1, ran: 0, open: 1, closed: 0, errors: 0, swept: 0 });
  assert.equal(h.paid.length, 0);

  away = false;
  const second = await h.handle.reconcile();
  assert.deepEqual(second, { checked: 1, ran: 1, open: 0, closed: 1, errors: 0, swept: 0 });
  assert.deepEqual(
    h.paid.map((c) => c.id),
    [id],
  );
});

test('one pass reads at most limit checkouts; the rest wait for the next', async () => {
  const h = makeHandler(sb);
  const ids = [];
  for (let i = 0; i < 3; i += 1) ids.push(await paidBehindTheHandler(h));
  const first = await h.handle.reconcile({ limit: 2 });
  assert.equal(first.checked, 2);
  const second = await h.handle.reconcile({ limit: 2 });
  assert.equal(second.checked, 1);
  assert.deepEqual(h.paid.map((c) => c.id).sort(), ids.sort());
});

test('a PUT for a checkout the provider does not know leaves nothing to reconcile', async () => {
  const h = makeHandler(sb);
  const res = await h.handle(
    request('PUT', '/checkouts/no-such-checkout', { body: cardBody('4200000000000091') }),
  );
  assert.equal(res.status, 404);
  assert.equal((await h.handle.reconcile()).checked, 0);
});

test('a store without open checkouts: reconcile does nothing and says why once', async () => {
  const memory = createMemoryStore();
  const h = makeHandler(sb, {
    store: {
      claim: memory.claim,
      complete: memory.complete,
      release: memory.release,
    },
  });
  await paidBehindTheHandler(h);
  assert.equal((await h.handle.reconcile()).checked, 0);
  await h.handle.reconcile();
  const warnings = h.logs.filter((line) => line.includes('keeps no open checkouts'));
  assert.equal(warnings.length, 1);
});
