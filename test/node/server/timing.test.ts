// The shopper never waits on the merchant: PUT, GET /checkouts/:id and GET /return answer as
// soon as the provider's status is read while onPaid runs behind them; only the webhook waits
// (its answer decides whether the provider delivers again). Plus the bounded wait a shop may
// opt into, and keeping a background hook alive where the platform would cut it off.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Sandbox } from '../../../src/sandbox/index.ts';
import { scaled, sleep } from '../../shared/until.ts';
import { cardBody } from '../support/cards.ts';
import { heldHook } from '../support/held-hook.ts';
import {
  createCheckout,
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

/**
 * Whether `promise` has settled by the time `later` (an answer that takes longer than one
 * that did not wait: it reads the provider over HTTP) has been.
 */
async function settledBy(promise: Promise<unknown>, later: Promise<unknown>): Promise<boolean> {
  let settled = false;
  void promise.then(
    () => {
      settled = true;
    },
    () => {
      settled = true;
    },
  );
  await later;
  return settled;
}

test('PUT answers PAID while onPaid is still running', async () => {
  const hook = heldHook();
  const h = makeHandler(sb, { hooks: { onPaid: hook.run } });
  const { id } = await createCheckout(h);
  const res = await h.handle(
    request('PUT', `/checkouts/${id}`, { body: cardBody('4200000000000091') }),
  );
  assert.equal(res.status, 200);
  assert.equal((await res.json()).status, 'PAID');
  await hook.entered;
  hook.finish();
  assert.equal(hook.calls, 1);
});

test('GET /checkouts/:id and GET /return answer while onPaid is running; it runs once', async () => {
  const hook = heldHook();
  const h = makeHandler(sb, { hooks: { onPaid: hook.run } });
  const { id } = await paidAtProvider(sb, h);
  const poll = await h.handle(request('GET', `/checkouts/${id}`));
  assert.equal(poll.status, 200);
  assert.equal((await poll.json()).status, 'PAID');
  await hook.entered;
  const back = await h.handle(request('GET', `/return?checkout_id=${id}`, { origin: null }));
  assert.equal(back.status, 303);
  assert.equal(back.headers.get('location'), `/result?outcome=success&checkout_id=${id}`);
  hook.finish();
  // Counted after a webhook (which waits for its report's claim) is answered: the poll's
  // and the return's reports, started before it, have looked at the claim by then.
  assert.equal((await h.handle(webhookRequest(id))).status, 204);
  assert.equal(hook.calls, 1);
});

test('the webhook waits for the hook: its answer is what makes the provider deliver again', async () => {
  const hook = heldHook();
  const h = makeHandler(sb, { hooks: { onPaid: hook.run } });
  const { id } = await paidAtProvider(sb, h);
  const answer = h.handle(webhookRequest(id));
  await hook.entered;
  // A poll of the same checkout, answered meanwhile (it reads the provider, and leaves the
  // running hook alone): a webhook that did not wait would have been answered before it.
  const poll = h.handle(request('GET', `/checkouts/${id}`));
  assert.equal(await settledBy(answer, poll), false, 'no answer while onPaid runs');
  assert.equal((await poll).status, 200);
  hook.finish();
  assert.equal((await answer).status, 204);
});

test('hooks.waitMs: the answer waits for a quick hook, and no longer than the bound for a slow one', async () => {
  const quick = makeHandler(sb, {
    hooks: {
      waitMs: scaled(5_000),
      onPaid: async () => {
        await sleep(20);
        quick.paid.push({});
      },
    },
  });
  const paid = await paidAtProvider(sb, quick);
  assert.equal((await quick.handle(request('GET', `/checkouts/${paid.id}`))).status, 200);
  assert.equal(quick.paid.length, 1, 'fulfilled before the page was answered');

  const hook = heldHook();
  const slow = makeHandler(sb, { hooks: { waitMs: 150, onPaid: hook.run } });
  const held = await paidAtProvider(sb, slow);
  const started = Date.now();
  const res = await slow.handle(request('GET', `/checkouts/${held.id}`));
  const waited = Date.now() - started;
  assert.equal(res.status, 200);
  assert.ok(waited >= 140, `answered after ${waited} ms, before the bound`);
  hook.finish();
  assert.throws(() => makeHandler(sb, { hooks: { waitMs: -1 } }), /hooks\.waitMs/);
});

test('waitUntil, from the options or a Worker-style ctx, is given the background hook', async () => {
  const kept: Promise<unknown>[] = [];
  const h = makeHandler(sb, { hooks: { waitUntil: (promise) => kept.push(promise) } });
  const { id } = await paidAtProvider(sb, h);
  await h.handle(request('GET', `/checkouts/${id}`));
  assert.equal(kept.length, 1);
  await kept[0];
  assert.equal(h.paid.length, 1, 'the kept promise ends when the hook has run');

  const fromCtx: Promise<unknown>[] = [];
  const worker = makeHandler(sb);
  const other = await paidAtProvider(sb, worker);
  const ctx = { waitUntil: (promise: Promise<unknown>) => fromCtx.push(promise) };
  await worker.handle(request('GET', `/checkouts/${other.id}`), {}, ctx);
  assert.equal(fromCtx.length, 1);
  await fromCtx[0];
  assert.equal(worker.paid.length, 1);
});
