// What every PaymentStore that keeps open checkouts must do (reconcile.ts relies on it),
// run against the memory store and, through each client package, the Redis store.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { PaymentStore } from '../../../src/server/index.ts';

type OpenSet = Required<Pick<PaymentStore, 'watch' | 'due' | 'unwatch'>>;

function openSet(store: PaymentStore): OpenSet {
  const { watch, due, unwatch } = store;
  assert.ok(watch && due && unwatch, 'the store keeps open checkouts');
  return {
    watch: watch.bind(store),
    due: due.bind(store),
    unwatch: unwatch.bind(store),
  };
}

/** Registers the open-set tests; `fresh()` names a set no other test uses. */
export function openSetContract(store: () => PaymentStore, fresh: () => string): void {
  test('due gives the checkouts due by now, soonest first, at most limit', async () => {
    const s = openSet(store());
    const set = fresh();
    await s.watch(set, 'late', 3_000);
    await s.watch(set, 'first', 1_000);
    await s.watch(set, 'second', 2_000);
    await s.watch(set, 'future', 9_000);
    assert.deepEqual(await s.due(set, 5_000, 2, 60_000), ['first', 'second']);
    assert.deepEqual(await s.due(set, 5_000, 10, 60_000), ['late']);
  });

  test('a checkout taken is held for holdMs: no second caller takes it meanwhile', async () => {
    const s = openSet(store());
    const set = fresh();
    for (let i = 0; i < 20; i += 1) await s.watch(set, `co_${i}`, 1_000);
    // Many callers at once, as instances reconciling together: each id goes to one of them.
    const batches = await Promise.all(
      Array.from({ length: 8 }, () => s.due(set, 2_000, 5, 30_000)),
    );
    const taken = batches.flat();
    assert.equal(taken.length, 20, `taken: ${taken.join(' ')}`);
    assert.equal(new Set(taken).size, 20, 'no checkout taken twice');
    assert.deepEqual(await s.due(set, 31_000, 50, 30_000), [], 'held until 32 000');
    assert.equal((await s.due(set, 32_000, 50, 30_000)).length, 20, 'due again after the hold');
  });

  test('watch again moves a checkout; unwatch removes it', async () => {
    const s = openSet(store());
    const set = fresh();
    await s.watch(set, 'a', 1_000);
    await s.watch(set, 'b', 1_000);
    await s.watch(set, 'a', 50_000);
    await s.unwatch(set, 'b');
    assert.deepEqual(await s.due(set, 10_000, 10, 1_000), []);
    assert.deepEqual(await s.due(set, 50_000, 10, 1_000), ['a']);
    await s.unwatch(set, 'missing');
  });

  test('sets are apart: one merchant’s checkouts are not another’s', async () => {
    const s = openSet(store());
    const one = fresh();
    const other = fresh();
    await s.watch(one, 'x', 1_000);
    assert.deepEqual(await s.due(other, 5_000, 10, 1_000), []);
    assert.deepEqual(await s.due(one, 5_000, 10, 1_000), ['x']);
  });
}
