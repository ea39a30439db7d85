// PostgreSQL going away under a shop whose store is in it, as docs/stores.md makes one: the
// store's pg Pool, with no `error` listener of the merchant's, loses its idle connections when
// the database restarts, and the shop's process must live on and pay again once it is back;
// while it is away, the console of a handler without a logger says which store failed, why,
// and what happens to the hook; and a database that stops answering (frozen, every
// connection open) costs a request one command timeout, not one per statement.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { after, before, test } from 'node:test';
import pg from 'pg';
import type { Sandbox } from '../../../src/sandbox/index.ts';
import { createPostgresStore, postgresStoreSchema } from '../../../src/server/index.ts';
import { scaled, until } from '../../shared/until.ts';
import { makeHandler, paidAtProvider, startSandbox, webhookRequest } from '../server/fixtures.ts';
import { frozenCostsOneTimeout } from '../support/frozen-store.ts';
import { heldHook } from '../support/held-hook.ts';
import { type PostgresServer, startPostgres } from '../support/postgres-server.ts';

let sb: Sandbox;
let server: PostgresServer;
const pools: pg.Pool[] = [];

before(async () => {
  [sb, server] = await Promise.all([startSandbox(), startPostgres()]);
  // The test server commits without waiting for its disk, and a crash loses what is not in
  // it yet: the tables must be there after each restart.
  const admin = new pg.Client({ connectionString: server.url });
  await admin.connect();
  await admin.query(postgresStoreSchema());
  await admin.query('CHECKPOINT');
  await admin.end();
});

after(async () => {
  await Promise.all(pools.map((pool) => pool.end()));
  await server?.stop();
  await sb?.close();
});

/** The store's own small pool, exactly as docs/stores.md writes it: no `error` listener. */
function storePool(): pg.Pool {
  const pool = new pg.Pool({ connectionString: server.url, max: 2 });
  pools.push(pool);
  return pool;
}

test('a restart of PostgreSQL does not end the process of a store on a pg Pool with no error listener', async () => {
  const pool = storePool();
  const store = createPostgresStore(pool);
  assert.equal(await store.claim('onPaid:M1:co_restart', 't1', 60_000), 'claimed');
  assert.equal(pool.idleCount, 1, 'an idle connection waits in the pool');

  // The idle connection fails with the server: pg emits `error` on the pool, then drops it.
  const dropped = once(pool, 'remove');
  await server.crash();
  await dropped;
  await server.start();

  assert.equal(await store.claim('onPaid:M1:co_after', 't2', 60_000), 'claimed');
});

test('while PostgreSQL is away, the console names it, the cause, and what becomes of onPaid', async (t) => {
  const errors = t.mock.method(console, 'error', () => {});
  t.mock.method(console, 'warn', () => {});
  const h = makeHandler(sb, {
    store: createPostgresStore(storePool()),
    logger: undefined,
  });
  const { id } = await paidAtProvider(sb, h);
  await server.crash();
  try {
    const res = await h.handle(webhookRequest(id));
    assert.equal(res.status, 503);
    assert.equal(
      ((await res.json()) as { error: { code: string } }).error.code,
      'STORE_UNAVAILABLE',
    );
  } finally {
    await server.start();
  }
  const lines = errors.mock.calls.map((call) => String(call.arguments[0]));
  const line = lines.find((l) => l.includes('onPaid did not run'));
  assert.ok(line, lines.join('\n'));
  assert.match(line, /provider delivers again, and reconcile\(\) runs it once the store answers/);
  assert.match(line, /Cause: PostgreSQL \(pg Pool\): .*ECONNREFUSED 127\.0\.0\.1:\d+/);
  assert.ok(line.endsWith(`(${id})`), line);

  // Back: the provider's next delivery runs the hook, once.
  const again = await h.handle(webhookRequest(id));
  assert.equal(again.status, 204);
  assert.deepEqual(
    h.paid.map((c) => c.id),
    [id],
  );
});

test('an onPaid that threw while PostgreSQL restarted runs again once it is back, not a lease later, and as no takeover', async () => {
  const hook = heldHook();
  const h = makeHandler(sb, {
    store: createPostgresStore(storePool()),
    hooks: {
      leaseMs: 60_000,
      // The merchant's order insert fails with the database: the first run throws.
      onPaid: async () => {
        await hook.run();
        if (hook.calls === 1) throw new Error('orders: connect ECONNREFUSED');
      },
    },
  });
  const { id } = await paidAtProvider(sb, h);
  const first = h.handle(webhookRequest(id));
  await hook.entered;
  // The claim outlives the crash, as on a database that waits for its disk (this one does not).
  const durable = new pg.Client({ connectionString: server.url });
  await durable.connect();
  await durable.query('CHECKPOINT');
  await durable.end();
  await server.crash();
  hook.finish();
  try {
    assert.notEqual((await first).status, 204);
  } finally {
    await server.start();
  }
  assert.match(h.logs.join('\n'), /could not release its claim .*released once the store answers/);
  // Freed in the background once the database answers: before, it stayed `running` for the
  // whole lease (a minute here), and the webhook then took it over, "may have run twice".
  const admin = new pg.Client({ connectionString: server.url });
  await admin.connect();
  try {
    await until('the claim to be freed', async () => {
      const held = await admin.query('SELECT 1 FROM payment_widget_claims WHERE key = $1', [
        `onPaid:${sb.merchantCode}:${id}`,
      ]);
      return held.rowCount === 0;
    });
  } finally {
    await admin.end();
  }
  assert.equal((await h.handle(webhookRequest(id))).status, 204);
  assert.equal(hook.calls, 2);
  assert.doesNotMatch(h.logs.join('\n'), /lease-taken-over|may have run twice/);
});

test('a PostgreSQL that stops answering costs a new checkout one command timeout, not one per statement', async (t) => {
  t.mock.method(console, 'error', () => {});
  t.mock.method(console, 'warn', () => {});
  const timeoutMs = scaled(1_000);
  // As the README's shop: a basket's checkout, its record read and written in the store.
  let basket = 0;
  const h = makeHandler(sb, {
    store: createPostgresStore(storePool(), { commandTimeoutMs: timeoutMs }),
    resolveCheckout: () => ({ amount: 10, currency: 'EUR', reference: `basket-${++basket}` }),
  });
  await frozenCostsOneTimeout(h, timeoutMs, server);
});
