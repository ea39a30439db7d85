// The `store` option in parts: each optional part whole or absent, refused by name at start
// when only part of it is there, and `{ claims, watch?, counters?, records? }` taking each
// part from the store given for it. Against a real sandbox, with memory stores.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Sandbox } from '../../../src/sandbox/index.ts';
import {
  type CompleteStore,
  createMemoryStore,
  type PaymentStore,
} from '../../../src/server/index.ts';
import { cardBody } from '../support/cards.ts';
import { createCheckout, makeHandler, request, startSandbox, webhookRequest } from './fixtures.ts';

let sb: Sandbox;
before(async () => {
  sb = await startSandbox();
});
after(async () => {
  await sb.close();
});

/** A memory store that notes which of its functions were called. */
function noting(): { store: CompleteStore; called: Set<string> } {
  const inner = createMemoryStore();
  const called = new Set<string>();
  const store = Object.fromEntries(
    Object.entries(inner).map(([name, fn]) => [
      name,
      (...args: unknown[]) => {
        called.add(name);
        return (fn as (...a: unknown[]) => unknown)(...args);
      },
    ]),
  ) as unknown as CompleteStore;
  return { store, called };
}

test('a store that has only part of a part is refused at start, naming what is missing', () => {
  const { due: _due, ...noDue } = createMemoryStore();
  assert.throws(
    () => makeHandler(sb, { store: noDue as unknown as PaymentStore }),
    /the store keeps the watched checkouts of reconcile\(\) only in part: it has watch\(\), unwatch\(\) but no due\(\)/,
  );
  const { swap: _swap, ...noSwap } = createMemoryStore();
  assert.throws(
    () => makeHandler(sb, { store: noSwap as unknown as PaymentStore }),
    /records .* no swap\(\)/,
  );
  const { claim: _claim, ...noClaim } = createMemoryStore();
  assert.throws(
    () => makeHandler(sb, { store: noClaim as unknown as CompleteStore }),
    /the store keeps the hooks’ claims only in part: it has complete\(\), release\(\) but no claim\(\)/,
  );
  assert.throws(
    () => makeHandler(sb, { store: { ...createMemoryStore(), completeIn: async () => true } }),
    /completeIn\(\) but no holder\(\)/,
  );
});

test('store parts: each part from its own store; a part given that keeps nothing is refused', async () => {
  const claims = noting();
  const counters = noting();
  const records = noting();
  const h = makeHandler(sb, {
    store: { claims: claims.store, counters: counters.store, records: records.store },
    hooks: { onPaid: () => {} },
  });
  const { id } = await createCheckout(h);
  const res = await h.handle(
    request('PUT', `/checkouts/${id}`, { body: cardBody('4200000000000091') }),
  );
  assert.equal(res.status, 200);
  const paid = (await res.json()) as { status: string };
  assert.equal(paid.status, 'PAID');
  // The webhook waits for the hook that the answer started in the background.
  assert.equal((await h.handle(webhookRequest(id))).status, 204);
  assert.deepEqual([...claims.called].sort(), ['claim', 'complete']);
  assert.deepEqual([...counters.called], ['hit']);
  assert.ok(records.called.has('swap'), [...records.called].join());
  // No watch part: reconcile() has nothing to do, and says so.
  const report = await h.handle.reconcile();
  assert.equal(report.checked, 0);
  assert.ok(
    h.logs.some((line) => line.includes('keeps no open checkouts')),
    h.logs.join('\n'),
  );

  assert.throws(
    () => makeHandler(sb, { store: { claims: claims.store, watch: {} as never } }),
    /store\.watch keeps none of the watched checkouts of reconcile\(\): it has no watch\(\), due\(\), unwatch\(\)/,
  );
  assert.throws(
    () => makeHandler(sb, { store: { claims: claims.store, cache: claims.store } as never }),
    /unknown store part cache; the parts are claims, watch, counters, records/,
  );
  assert.throws(
    () => makeHandler(sb, { store: { claims: undefined } as never }),
    /store\.claims must be a store that keeps claims/,
  );
});
