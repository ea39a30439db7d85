// The playground's store (site/worker/payment-store.ts) on the browser's own IndexedDB, in
// each engine: the store contract every store keeps (payment-widget/server/testing), and what
// it is for, that a worker started again finds the claims and records the last one kept; and
// the sandbox's request log kept beside them (site/worker/request-journal.ts).
import { expect } from '@open-wc/testing';
import { Database } from '../../../site/worker/idb.ts';
import { createBrowserStore } from '../../../site/worker/payment-store.ts';
import { Records } from '../../../site/worker/records.ts';
import { RequestJournal, savedRequests } from '../../../site/worker/request-journal.ts';
import { BODIES_KEPT, RequestLog } from '../../../src/sandbox/state/request-log.ts';
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

describe('the playground request log on IndexedDB', () => {
  /** A request log kept in the test's database, filled from it as a new worker's is. */
  async function keptLog(): Promise<{ log: RequestLog; journal: RequestJournal }> {
    const { db } = await opened;
    const log = new RequestLog();
    const journal = new RequestJournal(db);
    journal.open(log, savedRequests(await db.entries('records')));
    return { log, journal };
  }

  const stored = async () => savedRequests(await (await opened).db.entries('records'));

  it('a worker started again lists the same requests, the newest with their bodies; a reset empties it, the site’s records apart', async () => {
    const { db, records } = await opened;
    records.set('shop:kept', 'beside the log');
    await records.flush();
    const { log, journal } = await keptLog();
    const count = BODIES_KEPT + 5;
    for (let i = 0; i < count; i += 1) {
      log.record(1_000 + i, 'PUT', `/v0.1/checkouts/co_${i}`, 200, 1.5, `req_${i}`, '', {
        request: `{ "n": ${i} }`,
        response: '{ "status": "PAID" }',
      });
    }
    await journal.flush();
    const again = await keptLog();
    expect(again.log.list()).to.deep.equal(log.list());
    expect(again.log.list()[0]?.request_body).to.equal(`{ "n": ${count - 1} }`);
    // The database keeps the bodies of the newest BODIES_KEPT only, as the log does.
    const kept = await stored();
    expect(kept.length).to.equal(count);
    expect(kept.filter(([, r]) => r.requestBody !== '').length).to.equal(BODIES_KEPT);
    expect((await Records.load(db)).get('shop:kept')).to.equal('beside the log');

    // The dashboard's reset: the log starts again with the reset's own request.
    log.clear();
    log.record(9_000, 'POST', '/sandbox/reset', 200, 1, 'req_reset');
    await journal.flush();
    expect((await keptLog()).log.list().map((r) => r.request_id)).to.deep.equal(['req_reset']);
    expect((await Records.load(db)).get('shop:kept')).to.equal('beside the log');
  });
});
