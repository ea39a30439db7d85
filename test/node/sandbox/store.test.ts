// The store owns its records: each write emits exactly one change event, a `transact` emits its
// writes as one, ids are allocated inside, records cannot be changed past it (a type error),
// and replaying what it emitted gives the same state and counters as it had.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Change } from '../../../src/sandbox/state/store.ts';
import { Store } from '../../../src/sandbox/state/store.ts';
import { AT, checkoutDraft, paymentDraft } from './record-drafts.ts';

function recording(store: Store): (readonly Change[])[] {
  const events: (readonly Change[])[] = [];
  store.subscribe((changes) => events.push(changes));
  return events;
}

describe('the store', () => {
  test('insert, update and remove each emit one event; ids come from the store', () => {
    const store = new Store();
    const events = recording(store);
    const c = store.insert('checkouts', checkoutDraft('order-1'));
    assert.match(c.id, /^[0-9a-f-]{36}$/);
    store.update('checkouts', c.id, (draft) => {
      draft.status = 'PAID';
    });
    assert.equal(store.get('checkouts', c.id)?.status, 'PAID');
    assert.equal(store.remove('checkouts', c.id), true);
    assert.equal(store.remove('checkouts', c.id), false);
    assert.deepEqual(
      events.map((e) => e.map((change) => change.op)),
      [['put'], ['put'], ['remove']],
    );
    assert.deepEqual(store.checkoutsWithReference('order-1'), []);
  });

  test('a transact emits its writes once, together, even when it throws', () => {
    const store = new Store();
    const events = recording(store);
    const c = store.insert('checkouts', checkoutDraft('order-2'));
    store.transact(() => {
      const t = store.insert('transactions', paymentDraft(c.id));
      store.update('checkouts', c.id, (draft) => {
        draft.transaction_ids.push(t.id);
      });
    });
    assert.throws(() =>
      store.transact(() => {
        store.insert('customers', { customer_id: 'cus-1' });
        throw new Error('refused halfway');
      }),
    );
    assert.deepEqual(
      events.map((e) => e.length),
      [1, 2, 1],
    );
    assert.ok(store.has('customers', 'cus-1'), 'what was written before the throw is kept');
  });

  test('a record written twice in one transact is put once, as it is at the end', () => {
    const store = new Store();
    const events = recording(store);
    const c = store.insert('checkouts', checkoutDraft('order-3'));
    store.transact(() => {
      store.update('checkouts', c.id, (draft) => {
        draft.status = 'FAILED';
      });
      store.insert('transactions', paymentDraft(c.id));
      store.update('checkouts', c.id, (draft) => {
        draft.status = 'PAID';
      });
    });
    const [, batch] = events;
    assert.deepEqual(
      batch?.map((change) => (change.op === 'put' ? change.kind : change.op)),
      ['checkouts', 'transactions'],
    );
    const written = JSON.parse(JSON.stringify(batch)) as { record: { status?: string } }[];
    assert.equal(written[0]?.record.status, 'PAID', 'the one put carries the final state');
    // Removed and written again within one batch: both stay, in order.
    store.transact(() => {
      store.update('checkouts', c.id, () => {});
      store.remove('checkouts', c.id);
      store.insert('checkouts', checkoutDraft('order-3'));
    });
    assert.deepEqual(
      events[2]?.map((change) => change.op),
      ['put', 'remove', 'put'],
    );
  });

  test('records handed out are read-only to the compiler', () => {
    const store = new Store();
    const c = store.insert('checkouts', checkoutDraft('order-3'));
    const mutate = () => {
      // @ts-expect-error: only `update` may change a record
      c.status = 'PAID';
      // @ts-expect-error: nested arrays too
      c.transaction_ids.push('x');
    };
    assert.equal(typeof mutate, 'function');
  });

  test('replaying the events gives the same records and the same next ids', () => {
    const store = new Store();
    const events = recording(store);
    const c = store.insert('checkouts', checkoutDraft('order-4'));
    const t = store.insert('transactions', paymentDraft(c.id));
    store.update('transactions', t.id, (draft) => {
      draft.events.push({
        id: store.allocateEventId(),
        type: 'REFUND',
        status: 'REFUNDED',
        amount: 1,
        timestamp: AT,
      });
    });
    store.insert('deliveries', {
      url: 'http://127.0.0.1:9/hooks',
      payload: {},
      state: 'pending',
      attempts: [],
      created_at: AT,
    });
    store.setClockOffset(60_000);

    const copy = new Store();
    for (const changes of events) copy.replay(changes);
    assert.deepEqual(copy.snapshot(), store.snapshot());
    assert.equal(copy.checkoutsWithReference('order-4').length, 1);
    const next = copy.insert('transactions', paymentDraft(c.id));
    assert.equal(next.internal_id, t.internal_id + 1);
    assert.equal(copy.allocateEventId(), 2);
    const delivery = copy.insert('deliveries', {
      url: 'http://127.0.0.1:9/hooks',
      payload: {},
      state: 'pending',
      attempts: [],
      created_at: AT,
    });
    assert.equal(delivery.id, 'whd_2');
  });

  test('a reset is one event and puts everything back', () => {
    const store = new Store();
    store.insert('checkouts', checkoutDraft('order-5'));
    store.setClockOffset(1_000);
    const events = recording(store);
    store.reset();
    assert.deepEqual(events, [[{ op: 'reset' }]]);
    assert.equal(store.count('checkouts'), 0);
    assert.equal(store.clockOffsetMs, 0);
  });
});
