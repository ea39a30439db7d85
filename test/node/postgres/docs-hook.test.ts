// docs/stores.md's pg hook, as a merchant copies it, on a real PostgreSQL: its connection is
// ended by the server while the hook is inside its transaction (a restart, a failover,
// pg_terminate_backend). The shop's process must live on (a pg client with no `error`
// listener ends it), and the next report fulfils the order, once.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import pg from 'pg';
import type { Sandbox } from '../../../src/sandbox/index.ts';
import {
  createPostgresStore,
  type HookRun,
  type PaidCheckout,
  postgresStoreSchema,
} from '../../../src/server/index.ts';
import { until } from '../../shared/until.ts';
import { makeHandler, paidAtProvider, startSandbox, webhookRequest } from '../server/fixtures.ts';
import { type PostgresServer, startPostgres } from '../support/postgres-server.ts';

type Hook = (checkout: PaidCheckout, run: HookRun) => Promise<void>;

/** The `// pg` block of docs/stores.md, made into the hook it shows, over `pool`. */
function docsHook(pool: pg.Pool): Hook {
  const docs = readFileSync(new URL('../../../docs/stores.md', import.meta.url), 'utf8');
  const block = /```ts\n\/\/ pg\n(onPaid: [\s\S]*?\n},)\n```/.exec(docs)?.[1];
  assert.ok(block, "docs/stores.md: no '// pg' hook block");
  return (new Function('pool', `return ({ ${block} }).onPaid;`) as (p: pg.Pool) => Hook)(pool);
}

let sb: Sandbox;
let server: PostgresServer;
const pools: pg.Pool[] = [];
const pool = (max: number) => {
  const p = new pg.Pool({ connectionString: server.url, max });
  // Only the hook's checked-out client is under test: the pools' idle ones may error here.
  p.on('error', () => {});
  pools.push(p);
  return p;
};

before(async () => {
  [sb, server] = await Promise.all([startSandbox(), startPostgres()]);
  await pool(1).query(
    `${postgresStoreSchema()}CREATE TABLE orders (checkout_id text PRIMARY KEY, amount numeric);
CREATE TABLE outbox (kind text, checkout_id text);`,
  );
});

after(async () => {
  await Promise.all(pools.map((p) => p.end()));
  await server?.stop();
  await sb?.close();
});

test("docs/stores.md's pg hook: its connection ended mid-transaction fails the hook, not the process, and the next report fulfils the order once", async () => {
  const uncaught: unknown[] = [];
  const record = (error: unknown) => uncaught.push(error);
  process.on('uncaughtException', record);
  const admin = pool(2);
  const h = makeHandler(sb, {
    store: createPostgresStore(pool(3)),
    hooks: { onPaid: docsHook(pool(4)) },
  });
  try {
    const { id } = await paidAtProvider(sb, h);
    // The test holds the outbox: the hook waits inside its transaction, at its second INSERT.
    const lock = await admin.connect();
    await lock.query('BEGIN');
    await lock.query('LOCK TABLE outbox IN ACCESS EXCLUSIVE MODE');
    const first = h.handle(webhookRequest(id));
    let pid: unknown;
    await until('the hook to wait at the outbox', async () => {
      const { rows } = await admin.query(
        "SELECT pid FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE 'INSERT INTO outbox%'",
      );
      pid = rows[0]?.pid;
      return pid !== undefined;
    });
    await admin.query('SELECT pg_terminate_backend($1)', [pid]);
    assert.equal((await first).status, 500, 'the hook threw: the provider delivers again');
    await lock.query('COMMIT');
    lock.release();
    // What it threw is what failed: the ended connection, not the ROLLBACK that could not be
    // sent on it ("Connection terminated unexpectedly", before).
    const threw = h.logs.map((line) => JSON.parse(line)).find((e) => e.problem === 'hook-threw');
    assert.match(threw?.error, /terminating connection due to administrator command/);
    assert.deepEqual(uncaught, [], 'nothing escaped the hook');
    assert.equal((await h.handle(webhookRequest(id))).status, 204);
    const orders = await admin.query('SELECT checkout_id FROM orders');
    const outbox = await admin.query('SELECT checkout_id FROM outbox');
    assert.deepEqual([orders.rows, outbox.rows], [[{ checkout_id: id }], [{ checkout_id: id }]]);
  } finally {
    process.off('uncaughtException', record);
  }
});
