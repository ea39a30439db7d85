// createPostgresStore against a real PostgreSQL, through pg and postgres.js, straight and
// behind PgBouncer in transaction mode: the store contract every store keeps (with the done
// mark inside the merchant's transaction), the tables made at start by instances starting
// together, expired rows purged, and clients and options that are refused.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import postgres from 'postgres';
import postgres4 from 'postgres4';
import {
  createPostgresStore,
  type PostgresClientLike,
  postgresStoreSchema,
} from '../../../src/server/index.ts';
import { storeContract } from '../../../src/server/testing/index.ts';
import { scaled, until } from '../../shared/until.ts';
import {
  type Bouncer,
  type PostgresServer,
  startPgBouncer,
  startPostgres,
} from '../support/postgres-server.ts';
import { CLIENT_KINDS, type Connected, connect } from './clients.ts';

let server: PostgresServer;
let bouncer: Bouncer;
const opened: Connected[] = [];
const open = (kind: Connected['kind'], url: string, max?: number, pipeline?: number) => {
  const c = connect(kind, url, max, pipeline === undefined ? {} : { max_pipeline: pipeline });
  opened.push(c);
  return c;
};

before(async () => {
  server = await startPostgres();
  bouncer = await startPgBouncer(server);
  const admin = open('pg', server.url);
  await admin.query(postgresStoreSchema());
});

after(async () => {
  await Promise.all(opened.map((c) => c.close()));
  await bouncer?.stop();
  await server?.stop();
});

// The four ways in at once (each test keeps to keys of its own): a quarter of the time.
describe('the store contract', { concurrency: true }, () => {
  for (const kind of CLIENT_KINDS) {
    for (const via of ['direct', 'PgBouncer (transaction mode)'] as const) {
      describe(`the PostgreSQL store on ${kind}, ${via}`, () => {
        let c: Connected;
        before(() => {
          // postgres.js 4 pipelines statements on a connection, which PgBouncer holds up:
          // 20 concurrent claims on 10 connections went unanswered without max_pipeline: 1.
          c = via === 'direct' ? open(kind, server.url) : open(kind, bouncer.url, 10, 1);
        });
        // A statement may wait its turn for seconds on a loaded machine: not what is tested.
        const options = { commandTimeoutMs: scaled(5_000) };
        storeContract(test, () => createPostgresStore(c.client, options), {
          transaction: (work) => c.transaction(work),
        });
      });
    }
  }
});

test('instances starting together on an empty schema create the tables once', async () => {
  const c = open('pg', server.url, 20);
  const stores = Array.from({ length: 6 }, () =>
    createPostgresStore(c.client, { schema: 'fresh_start', createTables: true }),
  );
  const states = await Promise.all(
    stores.map((s, i) => s.claim('onPaid:M1:co_1', `t${i}`, 60_000)),
  );
  assert.equal(states.filter((s) => s === 'claimed').length, 1, states.join(' '));
  const tables = await c.query(
    "SELECT table_name FROM information_schema.tables WHERE table_schema = 'fresh_start' ORDER BY 1",
  );
  assert.deepEqual(
    tables.map((t) => t.table_name),
    [
      'payment_widget_claims',
      'payment_widget_counters',
      'payment_widget_records',
      'payment_widget_watch',
    ],
  );
});

test('postgres.js 3 and 4: a store creates its tables at start, and prints nothing when they exist', async () => {
  const admin = open('pg', server.url);
  for (const kind of ['postgres.js', 'postgres.js 4'] as const) {
    // postgres.js's default onnotice is console.log: what a merchant's console shows.
    const notices: string[] = [];
    const options = {
      max: 4, // the docs' store pool: more than one connection
      onnotice: (n: { message?: unknown }) => notices.push(`${n.message}`),
    };
    const sql =
      kind === 'postgres.js' ? postgres(server.url, options) : postgres4(server.url, options);
    const schema = kind === 'postgres.js' ? 'made_by_js3' : 'made_by_js4';
    try {
      // The first instance makes the tables, the next one (a restart) finds them.
      for (const instance of ['first', 'next']) {
        const store = createPostgresStore(sql, { schema, createTables: true });
        assert.equal(await store.claim(`onPaid:M1:${instance}`, 'a', 60_000), 'claimed', kind);
      }
      const [made] = await admin.query(
        'SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = $1',
        [schema],
      );
      assert.equal(made?.n, 4, kind);
      assert.deepEqual(notices, [], kind);
    } finally {
      await sql.end({ timeout: 1 });
    }
  }
});

test('a store whose tables were never made says how to make them, through either package', async () => {
  for (const kind of CLIENT_KINDS) {
    const c = open(kind, server.url);
    const store = createPostgresStore(c.client, { schema: 'never_migrated' });
    await assert.rejects(
      store.claim('onPaid:M1:co_1', 'a', 60_000),
      new RegExp(
        `^Error: PostgreSQL \\(${kind === 'pg' ? 'pg Pool' : 'postgres\\.js sql'}\\): relation "never_migrated\\.payment_widget_claims" does not exist: the store's tables are missing; put postgresStoreSchema\\(\\{ schema: 'never_migrated' \\}\\) in your migrations, or pass createTables: true$`,
      ),
      kind,
    );
  }
});

test('rows past their end are deleted a batch at a time, by the calls that come later', async () => {
  const c = open('pg', server.url);
  const store = createPostgresStore(c.client, {
    schema: 'purged',
    createTables: true,
    purgeEveryMs: 1,
  });
  for (let i = 0; i < 5; i += 1) await store.write(`step:M1:co_${i}`, 'gone soon', 1);
  await store.write('step:M1:kept', 'kept', 60_000);
  await until('the expired records to be deleted', async () => {
    await store.read('step:M1:kept');
    const [row] = await c.query('SELECT count(*)::int AS n FROM purged.payment_widget_records');
    return row?.n === 1;
  });
  assert.equal(await store.read('step:M1:kept'), 'kept');
});

test('a claim over a lease that ran out answers taken-over, even after the purge; one of many racing wins', async () => {
  const c = open('pg', server.url);
  const store = createPostgresStore(c.client, {
    schema: 'takeover',
    createTables: true,
    purgeEveryMs: 1,
  });
  const lease = scaled(100);
  assert.equal(await store.claim('onPaid:M1:dead', 'dead', lease), 'claimed');
  assert.equal(await store.claim('onPaid:M1:retried', 'threw', 60_000), 'claimed');
  assert.equal(await store.release('onPaid:M1:retried', 'threw'), true);
  await until(
    'the lease to run out',
    async () => (await store.holder('onPaid:M1:dead')) === undefined,
  );
  // A purge that ran after the lease ran out (it deletes this record past its end).
  await store.write('step:M1:gone', 'gone soon', 1);
  await until('a purge', async () => {
    await store.read('step:M1:kept');
    const [row] = await c.query('SELECT count(*)::int AS n FROM takeover.payment_widget_records');
    return row?.n === 0;
  });
  const racing = await Promise.all(
    Array.from({ length: 10 }, (_, i) => store.claim('onPaid:M1:dead', `next${i}`, 60_000)),
  );
  assert.deepEqual([...racing].sort(), [
    'running',
    'running',
    'running',
    'running',
    'running',
    'running',
    'running',
    'running',
    'running',
    'taken-over',
  ]);
  assert.equal(
    await store.claim('onPaid:M1:retried', 'again', 60_000),
    'claimed',
    'after a release',
  );
  assert.equal(await store.claim('onPaid:M1:first', 'first', 60_000), 'claimed');
});

test('a client of neither package, a pool or a postgres.js sql given as the transaction, and bad options are refused', async () => {
  const unsupported = (client: unknown) => client as PostgresClientLike;
  assert.throws(
    () => createPostgresStore(unsupported({})),
    /createPostgresStore needs a pg \(node-postgres\) Pool, or a postgres\.js sql .* got an object with neither query\(\) nor unsafe\(\)$/,
  );
  assert.throws(() => createPostgresStore(unsupported(undefined)), /got undefined$/);
  const c = open('pg', server.url);
  assert.throws(() => createPostgresStore(c.client, { doneTtlMs: 0 }), /doneTtlMs/);
  assert.throws(
    () => createPostgresStore(c.client, { schema: 'x"; DROP' }),
    /schema must be a PostgreSQL identifier/,
  );
  const store = createPostgresStore(c.client);
  assert.equal(await store.claim('onPaid:M1:pool-tx', 'a', 60_000), 'claimed');
  await assert.rejects(
    store.completeIn(c.client as never, 'onPaid:M1:pool-tx', 'a'),
    /done\(tx\) was given a pg Pool: pass the client inside your transaction/,
  );
  // postgres.js's sql itself, where its transaction's was meant: the mark would commit at
  // once, apart from the order, and an order rolled back after it would never be fulfilled.
  for (const kind of ['postgres.js', 'postgres.js 4'] as const) {
    const js = open(kind, server.url);
    await js.transaction(async () => {
      await assert.rejects(
        store.completeIn(js.client as never, 'onPaid:M1:pool-tx', 'a'),
        /done\(tx\) was given the postgres\.js sql itself: pass the sql of your transaction/,
        kind,
      );
    });
  }
  assert.equal((await store.holder('onPaid:M1:pool-tx'))?.state, 'running');
  await assert.rejects(
    store.completeIn({} as never, 'onPaid:M1:pool-tx', 'a'),
    /done\(tx\) needs a pg client inside your transaction/,
  );
});

test('docs/stores.md shows the schema postgresStoreSchema() gives', () => {
  const docs = readFileSync(new URL('../../../docs/stores.md', import.meta.url), 'utf8');
  assert.ok(
    docs.includes(`\`\`\`sql\n${postgresStoreSchema()}\`\`\``),
    'docs/stores.md: the schema block differs',
  );
});
