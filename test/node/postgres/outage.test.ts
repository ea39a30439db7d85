// PostgreSQL going away under a shop whose store is in it, as docs/stores.md makes one: the
// store's pg Pool, with no `error` listener of the merchant's, loses its idle connections when
// the database restarts, and the shop's process must live on and pay again once it is back.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { after, before, test } from 'node:test';
import pg from 'pg';
import { createPostgresStore, postgresStoreSchema } from '../../../src/server/index.ts';
import { type PostgresServer, startPostgres } from '../support/postgres-server.ts';

let server: PostgresServer;
const pools: pg.Pool[] = [];

before(async () => {
  server = await startPostgres();
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
