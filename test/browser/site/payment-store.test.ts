// The playground's store (site/worker/payment-store.ts) on the browser's own IndexedDB, in
// each engine: the store contract every store keeps (payment-widget/server/testing), and what
// it is for, that a worker started again finds the claims and records the last one kept.
import { expect } from '@open-wc/testing';
import { Database } from '../../../site/worker/idb.ts';
import { createBrowserStore } from '../../../site/worker/payment-store.ts';
import { Records } from '../../../site/worker/records.ts';
import { storeContract } from '../../../src/server/testing/index.ts';

/** A database of its own per run, so that no earlier run's records are found. */
const name = `payment-store-test-${Date.now()}-${Math.random().toString(36).slice(2)}`;
const opened = Database.open(name).then(async (db) => ({ db, records: await Records.load(db) }));

after(() => {
  indexedDB.deleteDatabase(name);
});

describe('the playground store on IndexedDB', () => {
  storeContract(it, async () => createBrowserStore((await opened).records), {
    name: 'IndexedDB',
    // The playground counts its rate limits in memory: one worker serves it.
    parts: ['watch', 'records'],
  });

  it('a worker started again finds the claims, the watched checkouts and the records', async () => {
    const { db, records } = await opened;
    const store = createBrowserStore(records);
    expect(await store.claim('onPaid:M1:co_kept', 'first', 60_000)).to.equal('claimed');
    expect(await store.complete('onPaid:M1:co_kept', 'first')).to.equal(true);
    expect(await store.claim('onPaid:M1:co_held', 'first', 60_000)).to.equal('claimed');
    await store.watch('open:{M1}', 'co_watched', 1_000);
    await store.write('step:M1:co_1', 'the step', 60_000);
    await records.flush();
    // What a new worker does: load the records from the database again.
    const again = createBrowserStore(await Records.load(db));
    expect(await again.claim('onPaid:M1:co_kept', 'second', 60_000)).to.equal('done');
    expect(await again.claim('onPaid:M1:co_held', 'second', 60_000)).to.equal('running');
    expect(await again.due('open:{M1}', 5_000, 10, 60_000)).to.deep.equal(['co_watched']);
    expect(await again.read('step:M1:co_1')).to.equal('the step');
  });
});
