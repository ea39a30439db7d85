// onPaid committing in the merchant's own transaction (`done(tx)`), on a real PostgreSQL
// through pg and postgres.js, with the claims in the same database as the orders: a hook
// that outlives its lease three times while a second report arrives commits one order row,
// whichever of the two runs gets to `done` first; the other rolls back with LeaseLostError,
// or, stalled before its transaction, meets the other's order and is told apart by its log
// (which says whether the other run is done yet).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Sandbox } from '../../../src/sandbox/index.ts';
import type { HookRun } from '../../../src/server/index.ts';
import {
  createPostgresStore,
  LeaseLostError,
  type PaidCheckout,
  postgresStoreSchema,
} from '../../../src/server/index.ts';
import { scaled, sleep } from '../../shared/until.ts';
import { makeHandler, paidAtProvider, startSandbox, webhookRequest } from '../server/fixtures.ts';
import { type PostgresServer, startPostgres } from '../support/postgres-server.ts';
import { CLIENT_KINDS, type ClientKind, type Connected, connect } from './clients.ts';

/** The hooks' lease: short, since the test waits three of them out. */
const LEASE_MS = scaled(200);

let sb: Sandbox;
let server: PostgresServer;
const opened: Connected[] = [];

before(async () => {
  [sb, server] = await Promise.all([startSandbox(), startPostgres()]);
  const admin = connect('pg', server.url);
  opened.push(admin);
  await admin.query(postgresStoreSchema());
  // No unique key on the checkout: the done mark alone must keep a second row out.
  await admin.query('CREATE TABLE orders (checkout_id text NOT NULL, run integer NOT NULL)');
  // As docs/stores.md's hooks write them: a second order of a checkout is refused.
  await admin.query('CREATE TABLE keyed_orders (checkout_id text PRIMARY KEY, run integer)');
});

after(async () => {
  await Promise.all(opened.map((c) => c.close()));
  await server?.stop();
  await sb?.close();
});

/** A gate the test opens: the first run waits at it. */
function gate() {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  let enter = () => {};
  const entered = new Promise<void>((resolve) => {
    enter = resolve;
  });
  return { opened, open, entered, enter };
}

// On pg and on postgres.js 4, what `npm i postgres` installs, the two at once, each client's
// tests one after another (each client has its own connections, each test its own checkout and
// handler): the tests spend their time waiting out leases, not on the CPU. What the leases and the second report do here is the
// handler's and the store's, the same statements whichever postgres.js major runs them;
// postgres.js 3's transaction sql meets done(tx) in the store contract (store.test.ts), which
// is where the two majors differ for the store (src/server/store/postgres-client.ts).
describe('done(tx) on each client at once', { concurrency: true }, () => {
  for (const kind of CLIENT_KINDS.filter((k) => k !== 'postgres.js')) doneTx(kind);
});

function doneTx(kind: ClientKind): void {
  // One at a time: the store's pool of 3 is shared by the client's tests, and one holds a row
  // lock across a wait for its lease.
  describe(`done(tx) on ${kind}`, { concurrency: 1 }, () => {
    let orders: Connected;
    let storeClient: Connected;
    before(() => {
      orders = connect(kind, server.url);
      // The store's own small pool, apart from the merchant's.
      storeClient = connect(kind, server.url, 3);
      opened.push(orders, storeClient);
    });

    /** A handler whose onPaid writes the order and marks done in one transaction. */
    function shop(
      hold: (run: number, tx: unknown, done: HookRun['done']) => Promise<void>,
      options: { table?: string; first?: (run: number) => Promise<void> } = {},
    ) {
      let runs = 0;
      const errors: unknown[] = [];
      const h = makeHandler(sb, {
        store: createPostgresStore(storeClient.client, { commandTimeoutMs: scaled(5_000) }),
        hooks: {
          leaseMs: LEASE_MS,
          async onPaid(checkout: PaidCheckout, { done }) {
            runs += 1;
            const run = runs;
            try {
              await options.first?.(run);
              await orders.transaction(async (tx) => {
                const insert = `INSERT INTO ${options.table ?? 'orders'} (checkout_id, run) VALUES ($1, $2)`;
                await (kind === 'pg'
                  ? (tx as { query(t: string, v: unknown[]): Promise<unknown> }).query(insert, [
                      checkout.id,
                      run,
                    ])
                  : (tx as { unsafe(t: string, v: unknown[]): Promise<unknown> }).unsafe(insert, [
                      checkout.id,
                      run,
                    ]));
                await hold(run, tx, done);
              });
            } catch (error) {
              errors.push(error);
              throw error;
            }
          },
        },
      });
      return { h, errors, runs: () => runs };
    }
    const rows = async (id: string) =>
      (await orders.query('SELECT run FROM orders WHERE checkout_id = $1', [id])).map((r) => r.run);

    test('the first run stalls before done past three leases: the second commits, the first rolls back', async () => {
      const first = gate();
      const { h, errors, runs } = shop(async (run, tx, done) => {
        if (run === 1) {
          first.enter();
          await first.opened;
        }
        await done(tx as never);
      });
      const { id } = await paidAtProvider(sb, h);
      const firstReport = h.handle(webhookRequest(id));
      await first.entered;
      // The lease runs out three times over while the hook is still inside.
      await sleep(LEASE_MS * 3);
      const second = await h.handle(webhookRequest(id));
      assert.equal(second.status, 204);
      assert.deepEqual(await rows(id), [2], 'the second run committed its order');
      first.open();
      assert.equal((await firstReport).status, 204, 'the first report finds the outcome done');
      assert.deepEqual(await rows(id), [2], 'one order row');
      assert.equal(runs(), 2);
      assert.equal(errors.length, 1);
      assert.ok(errors[0] instanceof LeaseLostError, String(errors[0]));
      assert.ok(
        h.logs.some((l) => l.includes('threw LeaseLostError and this run') && l.includes(id)),
        h.logs.join('\n'),
      );
      // Later reports find it done: no third run.
      assert.equal((await h.handle(webhookRequest(id))).status, 204);
      assert.equal(runs(), 2);
    });

    test('the first run reaches done while a second run holds the outcome: its log says that run holds it, not that it stands', async (t) => {
      const first = gate();
      const second = gate();
      // A failed assertion must not leave a run waiting at its gate.
      t.after(() => {
        first.open();
        second.open();
      });
      const { h, runs } = shop(async (run, tx, done) => {
        const at = run === 1 ? first : second;
        at.enter();
        await at.opened;
        await done(tx as never);
      });
      const { id } = await paidAtProvider(sb, h);
      const firstReport = h.handle(webhookRequest(id));
      await first.entered;
      await sleep(LEASE_MS * 3);
      const secondReport = h.handle(webhookRequest(id));
      await second.entered;
      first.open();
      assert.equal((await firstReport).status, 503, 'held by the second run');
      const said = h.logs.filter((l) => l.includes('threw LeaseLostError') && l.includes(id));
      assert.equal(said.length, 1, h.logs.join('\n'));
      assert.match(said[0] ?? '', /the other run holds it, not yet done/);
      second.open();
      assert.equal((await secondReport).status, 204);
      assert.deepEqual(await rows(id), [2], 'one order row, the second run’s');
      assert.equal(runs(), 2);
    });

    test('the first run marks done and stalls before COMMIT past three leases: the second report waits and finds it done', async () => {
      const first = gate();
      const { h, errors, runs } = shop(async (run, tx, done) => {
        await done(tx as never);
        if (run === 1) {
          first.enter();
          await first.opened;
        }
      });
      const { id } = await paidAtProvider(sb, h);
      const firstReport = h.handle(webhookRequest(id));
      await first.entered;
      await sleep(LEASE_MS * 3);
      // Its claim meets the first run's lock on the claim's row, and waits for the COMMIT.
      const secondReport = h.handle(webhookRequest(id));
      await sleep(LEASE_MS);
      first.open();
      assert.equal((await firstReport).status, 204);
      assert.equal((await secondReport).status, 204);
      assert.deepEqual(await rows(id), [1], 'one order row, the first run’s');
      assert.equal(runs(), 1, 'the hook ran once');
      assert.deepEqual(errors, []);
    });

    test('the first run stalls before its transaction past three leases: the second commits, the first finds the order there and is not said to run again', async () => {
      const first = gate();
      const { h, errors, runs } = shop(async (_run, tx, done) => done(tx as never), {
        table: 'keyed_orders',
        // Outside the transaction, as docs/stores.md asks of network calls (an ERP, say).
        async first(run) {
          if (run !== 1) return;
          first.enter();
          await first.opened;
        },
      });
      const { id } = await paidAtProvider(sb, h);
      const firstReport = h.handle(webhookRequest(id));
      await first.entered;
      await sleep(LEASE_MS * 3);
      assert.equal((await h.handle(webhookRequest(id))).status, 204);
      first.open();
      // Its INSERT meets the second run's order: the outcome is done, nothing runs again.
      assert.equal((await firstReport).status, 204, 'the first report finds the outcome done');
      assert.equal(runs(), 2);
      assert.match(String(errors[0]), /duplicate key/);
      const entries = h.logs.filter((l) => l.includes(id) && l.includes('onPaid'));
      assert.ok(
        entries.some(
          (l) => l.includes('another run took the outcome over') && l.includes('stands'),
        ),
        entries.join('\n'),
      );
      assert.ok(!entries.some((l) => l.includes('run again')), entries.join('\n'));
      assert.equal((await h.handle(webhookRequest(id))).status, 204);
      assert.equal(runs(), 2);
    });

    for (const late of [false, true]) {
      test(
        late
          ? 'a hook that rolls back after done past its lease: the next report runs it again, not said to take over a crashed claim'
          : 'a hook whose transaction rolls back after done runs again on the next report',
        async () => {
          const { h, runs } = shop(async (run, tx, done) => {
            await done(tx as never);
            if (run > 1) return;
            // Past the lease (holding the claim's row) before the warehouse refuses the order.
            if (late) await sleep(LEASE_MS * 2);
            throw new Error('the warehouse refused the order');
          });
          const { id } = await paidAtProvider(sb, h);
          assert.equal((await h.handle(webhookRequest(id))).status, 500);
          assert.deepEqual(await rows(id), []);
          assert.equal((await h.handle(webhookRequest(id))).status, 204);
          assert.deepEqual(await rows(id), [2]);
          assert.equal(runs(), 2);
          const said = h.logs.filter((l) => l.includes(id)).map((l) => JSON.parse(l).problem);
          // It rolled back, which its own lines said; nothing of it was left to take over.
          const expected = late ? ['lease-ran-out', 'hook-threw'] : ['hook-threw'];
          assert.deepEqual(said.filter(Boolean), expected, h.logs.join('\n'));
        },
      );
    }
  });
}
