// What createRedisStore must do on every topology and through every client package: the
// store contract every store keeps (payment-widget/server/testing), then what only Redis
// shows: the keys' values and lifetimes under the lease protocol, and its scripts sent again
// after a node forgot them. Registered inside a `describe` by store.test.ts (one Redis)
// and the Cluster and Sentinel files, with a store whose keys start with `prefix`.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { PaymentStore } from '../../../src/server/index.ts';
import { storeContract } from '../../../src/server/testing/index.ts';
import { until } from '../../shared/until.ts';

export interface StoreUnderTest {
  store: PaymentStore;
  prefix: string;
  /** A command on the node that serves its key (the first argument after the name). */
  command(...args: string[]): Promise<unknown>;
  /** SCRIPT FLUSH on every node: each forgets the store's scripts. */
  flushScripts(): Promise<void>;
}

export function redisStoreContract(get: () => StoreUnderTest, label: string): void {
  let n = 0;
  /** A fresh name per test, so no test sees another's keys. */
  const fresh = (kind: string) => {
    n += 1;
    return `${kind}:M1:${label}-${n}`;
  };
  const read = (key: string) => get().command('GET', get().prefix + key);
  const pttl = async (key: string) => Number(await get().command('PTTL', get().prefix + key));

  // What every store keeps, read through the store alone.
  storeContract(test, () => get().store, { name: label });

  // What only Redis shows: the values and lifetimes of its keys, and its scripts.
  test('one of many concurrent claims wins; the key holds its token for the lease', async () => {
    const { store } = get();
    const key = fresh('onPaid');
    const tokens = Array.from({ length: 20 }, (_, i) => `t${i}`);
    const asked = Date.now();
    const states = await Promise.all(tokens.map((token) => store.claim(key, token, 5_000)));
    const winners = tokens.filter((_, i) => states[i] === 'claimed');
    assert.equal(winners.length, 1, `claims: ${states.join(' ')}`);
    assert.ok(states.every((s) => s === 'claimed' || s === 'running'));
    assert.equal(await read(key), `running:${winners[0]}`);
    const left = await pttl(key);
    // Set to the lease when claimed: less only by the time since (however slow the machine).
    const since = Date.now() - asked;
    assert.ok(left >= 5_000 - since && left <= 5_000, `lease left ${left} ms, ${since} ms later`);
  });

  test('only the holder completes or releases; done is kept, never freed', async () => {
    const { store } = get();
    const key = fresh('onPaid');
    assert.equal(await store.claim(key, 'holder', 5_000), 'claimed');
    assert.equal(await store.complete(key, 'other'), false);
    assert.equal(await store.release(key, 'other'), false);
    assert.equal(await read(key), 'running:holder');
    assert.equal(await store.complete(key, 'holder'), true);
    assert.equal(await store.complete(key, 'holder'), true, 'a repeated complete is harmless');
    assert.equal(await read(key), 'done:holder');
    assert.equal(await store.claim(key, 'late', 5_000), 'done');
    assert.equal(await store.release(key, 'holder'), false, 'a done key is never freed');
    const released = fresh('onPaid');
    assert.equal(await store.claim(released, 'holder', 5_000), 'claimed');
    assert.equal(await store.claim(released, 'other', 5_000), 'running');
    assert.equal(await store.release(released, 'holder'), true);
    assert.equal(await read(released), null);
    assert.equal(await store.claim(released, 'next', 5_000), 'claimed');
  });

  test('a lease that ran out is taken over; its old holder can neither complete nor free it', async () => {
    const { store, prefix, command } = get();
    const key = fresh('onPaid');
    assert.equal(await store.claim(key, 'dead', 60_000), 'claimed');
    assert.equal(await store.claim(key, 'early', 5_000), 'running');
    // The lease runs out (Redis is told it is over, rather than the test waiting a minute).
    await command('PEXPIRE', prefix + key, '1');
    await until('the lease to run out', async () => (await read(key)) === null);
    // Nothing of the dead claim is left in its key: the claim's record says it was there.
    assert.equal(await store.claim(key, 'next', 5_000), 'taken-over');
    assert.equal(await store.complete(key, 'dead'), false);
    assert.equal(await store.release(key, 'dead'), false);
    assert.equal(await read(key), 'running:next');
    assert.equal(await read(`claimed:${key}`), 'running:next');
  });

  test('a holder whose lease ran out with nobody taking it over frees it: the next claim is no takeover', async () => {
    const { store, prefix, command } = get();
    const key = fresh('onPaid');
    assert.equal(await store.claim(key, 'slow', 60_000), 'claimed');
    await command('PEXPIRE', prefix + key, '1');
    await until('the lease to run out', async () => (await read(key)) === null);
    // Its hook threw (or its transaction rolled back) after the lease: released, not crashed.
    assert.equal(await store.release(key, 'slow'), true);
    assert.equal(await read(`claimed:${key}`), null);
    assert.equal(await store.claim(key, 'next', 5_000), 'claimed');
    assert.equal(await store.release(key, 'slow'), false, "another's claim is never freed");
    assert.equal(await read(key), 'running:next');
  });

  test('a first claim, and one after a release or done, is no takeover; done or released, the record goes', async () => {
    const { store } = get();
    const key = fresh('onPaid');
    assert.equal(await store.claim(key, 'first', 5_000), 'claimed');
    assert.equal(await read(`claimed:${key}`), 'running:first');
    assert.ok((await pttl(`claimed:${key}`)) > 5_000, 'the record outlives the lease');
    assert.equal(await store.release(key, 'first'), true);
    assert.equal(await read(`claimed:${key}`), null);
    assert.equal(await store.claim(key, 'again', 5_000), 'claimed', 'a retry after a release');
    assert.equal(await store.complete(key, 'again'), true);
    await until('the record to go', async () => (await read(`claimed:${key}`)) === null);
  });

  test('the scripts are sent again after every node forgot them', async () => {
    const { store } = get();
    const keys = Array.from({ length: 6 }, () => fresh('onPaid'));
    for (const key of keys) assert.equal(await store.claim(key, 'a', 5_000), 'claimed');
    await get().flushScripts();
    // Keys spread over the nodes: each node answers NOSCRIPT once, and gets the script.
    for (const key of keys) assert.equal(await store.complete(key, 'a'), true);
    await get().flushScripts();
    for (const key of keys) assert.equal(await store.release(key, 'a'), false);
    for (const key of keys) assert.equal(await read(key), 'done:a');
  });
}
