// What every PaymentStore that keeps records must do: read what was set, and set only over
// the value the caller expects, so instances that race on one basket agree on its checkout;
// and write and remove outright (a checkout's open step). Run against the memory store and,
// through each client package, the Redis store.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { PaymentStore } from '../../../src/server/index.ts';
import { sleep } from '../../shared/until.ts';

type Records = Required<Pick<PaymentStore, 'read' | 'swap' | 'write' | 'remove'>>;

function records(store: PaymentStore): Records {
  const { read, swap, write, remove } = store;
  assert.ok(read && swap && write && remove, 'the store keeps records');
  return {
    read: read.bind(store),
    swap: swap.bind(store),
    write: write.bind(store),
    remove: remove.bind(store),
  };
}

/** Registers the record tests; `fresh()` names a key no other test uses. */
export function recordContract(store: () => PaymentStore, fresh: () => string): void {
  test('swap sets a record only over the value expected; read gives what is set', async () => {
    const r = records(store());
    const key = fresh();
    assert.equal(await r.read(key), undefined);
    assert.equal(await r.swap(key, 'other', 'a', 60_000), false, 'nothing there, not "other"');
    assert.equal(await r.swap(key, undefined, 'a', 60_000), true);
    assert.equal(await r.read(key), 'a');
    assert.equal(await r.swap(key, undefined, 'b', 60_000), false, 'no longer empty');
    assert.equal(await r.swap(key, 'a', 'b', 60_000), true);
    assert.equal(await r.read(key), 'b');
  });

  test('of many instances swapping from one value at once, exactly one wins', async () => {
    const r = records(store());
    const key = fresh();
    const wins = await Promise.all(
      Array.from({ length: 12 }, (_, i) => r.swap(key, undefined, `checkout-${i}`, 60_000)),
    );
    assert.equal(wins.filter(Boolean).length, 1);
    const winner = wins.indexOf(true);
    assert.equal(await r.read(key), `checkout-${winner}`);
  });

  test('a record is gone once its time is over', async () => {
    const r = records(store());
    const key = fresh();
    assert.equal(await r.swap(key, undefined, 'short', 40), true);
    await sleep(120);
    assert.equal(await r.read(key), undefined);
    assert.equal(await r.swap(key, undefined, 'again', 60_000), true);
  });

  test('write sets a record whatever it held, remove takes it away, and a write expires', async () => {
    const r = records(store());
    const key = fresh();
    await r.write(key, 'step-1', 60_000);
    assert.equal(await r.read(key), 'step-1');
    await r.write(key, 'step-2', 60_000);
    assert.equal(await r.read(key), 'step-2');
    assert.equal(await r.swap(key, 'step-2', 'step-3', 60_000), true, 'a written record swaps');
    await r.remove(key);
    assert.equal(await r.read(key), undefined);
    await r.remove(key);
    assert.equal(await r.read(key), undefined, 'removing nothing is harmless');
    await r.write(key, 'short', 40);
    await sleep(120);
    assert.equal(await r.read(key), undefined);
  });
}
