/**
 * The payment store in PostgreSQL, the database most shops keep their orders in: every part
 * (claims, watched checkouts, counters, records) in four tables (postgres-schema.ts), and the
 * hooks' done marks able to commit in the merchant's own transaction (`completeIn`), so that
 * at most one fulfilment commits per outcome whatever the leases, pauses or crashes.
 *
 * Each method is one statement at READ COMMITTED, in a transaction of its own: claims and
 * swaps are `INSERT ... ON CONFLICT` (the row lock orders racing instances), `due` takes its
 * batch `FOR UPDATE SKIP LOCKED` (reconcilers never wait on each other). No session state,
 * no named prepared statement, no LISTEN, no lock held across statements: it works behind
 * PgBouncer in transaction mode. Times are the database's (`clock_timestamp()`), so the
 * instances' clocks need not agree. Rows past their end are skipped by every read and deleted
 * a bounded batch at a time, at most once a `purgeEveryMs`, by whichever call comes next:
 * the store keeps no timer.
 */

import { positive } from './durations.ts';
import {
  type PostgresClientLike,
  type Row,
  runInTransaction,
  type SqlConnection,
  sqlConnection,
} from './postgres-client.ts';
import { type PostgresSchemaOptions, postgresStoreSchema, tableNames } from './postgres-schema.ts';
import { type CompleteStore, DONE_TTL_MS, type SqlTransaction } from './types.ts';
import { unanswered } from './unanswered.ts';

export type { PgPoolLike, PostgresClientLike, PostgresJsLike } from './postgres-client.ts';
export { type PostgresSchemaOptions, postgresStoreSchema } from './postgres-schema.ts';

export interface PostgresStoreOptions extends PostgresSchemaOptions {
  /**
   * Creates the tables at start when they are missing (`postgresStoreSchema()`), in one
   * transaction under an advisory lock, so instances starting together create them once.
   * Default false: the tables come from your migrations.
   */
  createTables?: boolean;
  /** How long a `done` mark is kept: as long as the provider may report a checkout. Default 7 days. */
  doneTtlMs?: number;
  /**
   * How long one statement may take before the store gives up on it (the statement itself
   * is left to the database's `statement_timeout`). A claim that gave up runs no hook (its
   * webhook is answered non-2xx, the provider delivers again). Default 5 000 ms.
   */
  commandTimeoutMs?: number;
  /** At most how often expired rows are deleted (a batch of at most 1 000 per table). Default 60 000 ms. */
  purgeEveryMs?: number;
}

/** The PostgreSQL store: every part, and done marks inside the merchant's transaction. */
export type PostgresStore = CompleteStore & Required<Pick<CompleteStore, 'completeIn' | 'holder'>>;

const PURGE_BATCH = 1000;
const ms = (param: string) => `(${param}::float8 * interval '1 millisecond')`;

/** The statements, one per method, over the tables `t`. */
function statements(t: ReturnType<typeof tableNames>) {
  const purge = (table: string, name: string, also = '') =>
    `${name} AS (DELETE FROM ${table} WHERE ctid = ANY (ARRAY(SELECT ctid FROM ${table} WHERE expires_at <= clock_timestamp()${also} LIMIT ${PURGE_BATCH})) RETURNING 1)`;
  return {
    // Always updates the row it meets (to the same values while the lease runs), so the
    // answer is the row as it stands after every racer: one claim wins, the others see it.
    // `was`: the row before (the statement's snapshot), `running` when a lease ran out.
    claim: `INSERT INTO ${t.claims} AS c (key, token, state, expires_at)
VALUES ($1, $2, 'running', clock_timestamp() + ${ms('$3')})
ON CONFLICT (key) DO UPDATE SET
  token = CASE WHEN c.expires_at <= clock_timestamp() THEN excluded.token ELSE c.token END,
  state = CASE WHEN c.expires_at <= clock_timestamp() THEN 'running' ELSE c.state END,
  expires_at = CASE WHEN c.expires_at <= clock_timestamp() THEN excluded.expires_at ELSE c.expires_at END
RETURNING token, state, (SELECT state FROM ${t.claims} WHERE key = $1) AS was`,
    // Done when held under the token (running or done), or free again; never over another's
    // live claim or mark. In the merchant's transaction, the row stays locked until it ends.
    complete: `INSERT INTO ${t.claims} AS c (key, token, state, expires_at)
VALUES ($1, $2, 'done', clock_timestamp() + ${ms('$3')})
ON CONFLICT (key) DO UPDATE SET token = excluded.token, state = 'done', expires_at = excluded.expires_at
WHERE c.token = excluded.token OR c.expires_at <= clock_timestamp()
RETURNING 1 AS done`,
    // Its lease may have run out: nobody took it over while the token is still there, and a
    // claim left behind would read as a crashed holder's to the next one (`was`).
    release: `DELETE FROM ${t.claims} WHERE key = $1 AND token = $2 AND state = 'running' RETURNING 1 AS released`,
    holder: `SELECT token, state, extract(epoch FROM expires_at - clock_timestamp()) * 1000 AS ms FROM ${t.claims} WHERE key = $1 AND expires_at > clock_timestamp()`,
    watch: `INSERT INTO ${t.watch} AS w (set_name, id, check_at, expires_at)
VALUES ($1, $2, $3, clock_timestamp() + ${ms('$4')})
ON CONFLICT (set_name, id) DO UPDATE SET check_at = excluded.check_at, expires_at = excluded.expires_at`,
    due: `WITH picked AS (
  SELECT set_name, id, check_at FROM ${t.watch}
  WHERE set_name = $1 AND check_at <= $2 AND expires_at > clock_timestamp()
  ORDER BY check_at, id LIMIT $3
  FOR UPDATE SKIP LOCKED
)
UPDATE ${t.watch} AS w SET check_at = $4 FROM picked
WHERE w.set_name = picked.set_name AND w.id = picked.id
RETURNING w.id, picked.check_at::float8 AS was`,
    unwatch: `DELETE FROM ${t.watch} WHERE set_name = $1 AND id = $2`,
    // In key order, so two calls over the same counters lock them in the same order.
    hit: `INSERT INTO ${t.counters} AS c (key, hits, expires_at)
SELECT k, 1, clock_timestamp() + (w * interval '1 millisecond')
FROM json_to_recordset($1::text::json) AS x(k text, w float8) ORDER BY k
ON CONFLICT (key) DO UPDATE SET
  hits = CASE WHEN c.expires_at <= clock_timestamp() THEN 1 ELSE c.hits + 1 END,
  expires_at = CASE WHEN c.expires_at <= clock_timestamp() THEN excluded.expires_at ELSE c.expires_at END
RETURNING key, hits, extract(epoch FROM (expires_at - clock_timestamp()))::float8 * 1000 AS reset_ms`,
    read: `SELECT value FROM ${t.records} WHERE key = $1 AND expires_at > clock_timestamp()`,
    swapFromNothing: `INSERT INTO ${t.records} AS r (key, value, expires_at)
VALUES ($1, $2, clock_timestamp() + ${ms('$3')})
ON CONFLICT (key) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at
WHERE r.expires_at <= clock_timestamp()
RETURNING 1 AS swapped`,
    swapFrom: `UPDATE ${t.records} SET value = $3, expires_at = clock_timestamp() + ${ms('$4')}
WHERE key = $1 AND value = $2 AND expires_at > clock_timestamp()
RETURNING 1 AS swapped`,
    write: `INSERT INTO ${t.records} AS r (key, value, expires_at)
VALUES ($1, $2, clock_timestamp() + ${ms('$3')})
ON CONFLICT (key) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at`,
    remove: `DELETE FROM ${t.records} WHERE key = $1`,
    // A lease that ran out is kept as long as a done mark: the claim taking it over tells.
    purge: `WITH ${purge(t.claims, 'a', ` AND (state = 'done' OR expires_at <= clock_timestamp() - ${ms('$1')})`)}, ${purge(t.watch, 'b')}, ${purge(t.counters, 'c')}, ${purge(t.records, 'd')}
SELECT (SELECT count(*) FROM a) + (SELECT count(*) FROM b) + (SELECT count(*) FROM c) + (SELECT count(*) FROM d) AS purged`,
  };
}

/**
 * A failure of `what` named as the database's: the driver's own words (`connect ECONNREFUSED
 * 127.0.0.1:5432`) say neither which store failed nor through what, and the handler's log
 * shows them to an operator who must find it.
 */
function named(error: unknown, made: string, schema: string | undefined): unknown {
  if (!(error instanceof Error) || error.message.startsWith('PostgreSQL')) return error;
  // undefined_table: no migration made them, and this store was not asked to.
  const fix =
    (error as { code?: unknown }).code === '42P01'
      ? `: the store's tables are missing; put postgresStoreSchema(${schema === undefined ? '' : `{ schema: '${schema}' }`}) in your migrations, or pass createTables: true`
      : '';
  return new Error(`PostgreSQL (${made}): ${error.message}${fix}`, { cause: error });
}

/** Rejects when `work` has no answer within `timeoutMs`, after telling `onTimeout`. */
function timed<T>(
  work: Promise<T>,
  timeoutMs: number,
  what: string,
  onTimeout: () => void,
): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      onTimeout();
      reject(new Error(`PostgreSQL did not answer ${what} within ${timeoutMs} ms`));
    }, timeoutMs);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/**
 * A `PaymentStore` in PostgreSQL: `createPaymentHandler({ store: createPostgresStore(pool) })`
 * on every instance. `client` is a `pg` `Pool` or a postgres.js `sql`, made and closed by the
 * caller; give the store a small pool of its own (a few connections) so that hooks holding
 * connections in long transactions never starve it. Any other client is refused here, with a
 * message naming what is supported.
 */
export function createPostgresStore(
  client: PostgresClientLike,
  options: PostgresStoreOptions = {},
): PostgresStore {
  const connection: SqlConnection = sqlConnection(client);
  const sql = statements(tableNames(options));
  const doneTtl = positive('doneTtlMs', options.doneTtlMs ?? DONE_TTL_MS);
  const timeoutMs = positive('commandTimeoutMs', options.commandTimeoutMs ?? 5_000);
  const purgeEveryMs = positive('purgeEveryMs', options.purgeEveryMs ?? 60_000);
  const createTables = options.createTables ?? false;
  if (typeof createTables !== 'boolean') throw new TypeError('createTables must be true or false');

  let tables: Promise<void> | undefined;
  /** The tables, created once when asked to (tried again after a failure). */
  function ready(): Promise<void> {
    if (!createTables) return Promise.resolve();
    // One simple query is one transaction by itself: no BEGIN, which postgres.js 3 refuses on a
    // sql of more than one connection (UNSAFE_TRANSACTION). Warnings only: each existing
    // table's "already exists, skipping" NOTICE would reach the console at every start
    // (postgres.js logs notices by default).
    tables ??= connection
      .script(
        `SET LOCAL client_min_messages = warning;
SELECT pg_advisory_xact_lock(hashtext('payment-widget tables ${options.schema ?? ''}'));
${postgresStoreSchema(options)}`,
      )
      .catch((error: unknown) => {
        tables = undefined;
        throw error;
      });
    return tables;
  }

  let purgedAt = Date.now();
  const silence = unanswered('PostgreSQL', timeoutMs);
  const probe = () => connection.run('SELECT 1', []);
  async function run(text: string, values: unknown[], what: string): Promise<Row[]> {
    try {
      silence.check(what);
      await ready();
      const now = Date.now();
      if (now - purgedAt >= purgeEveryMs) {
        purgedAt = now;
        // Not awaited, and its failure is nobody's: the next purge deletes what this one left.
        connection.run(sql.purge, [doneTtl]).catch(() => undefined);
      }
      return await timed(connection.run(text, values), timeoutMs, what, () =>
        silence.timedOut(probe),
      );
    } catch (error) {
      throw named(error, connection.made, options.schema);
    }
  }
  const one = async (text: string, values: unknown[], what: string) =>
    (await run(text, values, what)).length > 0;

  return {
    async claim(key, token, leaseMs) {
      const lease = positive('leaseMs', leaseMs);
      const [row] = await run(sql.claim, [key, token, lease], 'a claim');
      if (row === undefined) throw new Error('PostgreSQL answered a claim with no row');
      if (row.token === token && row.state === 'running') {
        return row.was === 'running' ? 'taken-over' : 'claimed';
      }
      return row.state as 'running' | 'done';
    },
    complete: (key, token) => one(sql.complete, [key, token, doneTtl], 'a done mark'),
    async completeIn(tx: SqlTransaction, key, token) {
      await ready();
      return (await runInTransaction(tx, sql.complete, [key, token, doneTtl])) > 0;
    },
    async holder(key) {
      const [row] = await run(sql.holder, [key], 'a claim read');
      if (row === undefined) return undefined;
      return { token: String(row.token), state: row.state as 'running' | 'done' };
    },
    release: (key, token) => one(sql.release, [key, token], 'a release'),
    async leaseLeft(key) {
      const [row] = await run(sql.holder, [key], 'a claim read');
      return row && Number(row.ms);
    },
    async watch(set, id, checkAt) {
      await run(sql.watch, [set, id, Math.floor(checkAt), doneTtl], 'a watch');
    },
    async due(set, now, limit, holdMs) {
      const rows = await run(
        sql.due,
        [set, Math.floor(now), Math.max(1, Math.floor(limit)), Math.floor(now + holdMs)],
        'due',
      );
      return rows
        .map((row) => ({ id: String(row.id), was: Number(row.was) }))
        .sort((a, b) => a.was - b.was || (a.id < b.id ? -1 : 1))
        .map((row) => row.id);
    },
    async unwatch(set, id) {
      await run(sql.unwatch, [set, id], 'an unwatch');
    },
    async hit(counters) {
      // One row per key: a statement may not change one row twice.
      const windows = new Map<string, number>();
      for (const c of counters) windows.set(c.key, positive('windowMs', c.windowMs));
      const rows = await run(
        sql.hit,
        [JSON.stringify([...windows].map(([k, w]) => ({ k, w })))],
        'the rate counters',
      );
      const byKey = new Map(rows.map((row) => [String(row.key), row]));
      return counters.map((c) => {
        const row = byKey.get(c.key);
        if (row === undefined)
          throw new Error('PostgreSQL answered the rate counters with something else');
        return { hits: Number(row.hits), resetInMs: Math.max(0, Math.ceil(Number(row.reset_ms))) };
      });
    },
    async read(key) {
      const [row] = await run(sql.read, [key], 'a record read');
      return row === undefined ? undefined : String(row.value);
    },
    swap(key, expected, value, ttlMs) {
      const ttl = positive('ttlMs', ttlMs);
      return expected === undefined
        ? one(sql.swapFromNothing, [key, value, ttl], 'a swap')
        : one(sql.swapFrom, [key, expected, value, ttl], 'a swap');
    },
    async write(key, value, ttlMs) {
      await run(sql.write, [key, value, positive('ttlMs', ttlMs)], 'a record write');
    },
    async remove(key) {
      await run(sql.remove, [key], 'a record remove');
    },
  };
}
