/**
 * The PostgreSQL clients the store takes, told apart by their shape, and one way to run a
 * statement through each. Nothing here imports a PostgreSQL package: the merchant's client is
 * only called.
 *
 * - `pg` (node-postgres): a `Pool` (or a `Client`) answers `query(text, values)` with
 *   `{ rows }`. With values it sends an unnamed prepared statement, parsed and run in one go.
 * - `postgres` (postgres.js): the `sql` function, whose `unsafe(text, values, { prepare: false })`
 *   answers the rows; `prepare: false` keeps it from naming statements that PgBouncer's
 *   transaction mode would send to another server.
 *
 * Each call is one statement, in a transaction of its own (autocommit): the store keeps no
 * session state, so a pooler in transaction mode may hand every call to another server.
 */
import { gotInstead } from './got-instead.ts';
import type { SqlTransaction } from './types.ts';

/** A `pg` (node-postgres) `Pool` or `Client`. */
export interface PgPoolLike {
  query(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

/** A postgres.js `sql` (from `postgres(url)`). */
export interface PostgresJsLike {
  unsafe(text: string, values?: unknown[], options?: { prepare?: boolean }): PromiseLike<unknown>;
}

export type PostgresClientLike = PgPoolLike | PostgresJsLike;

/** A row as the store reads it. */
export type Row = Record<string, unknown>;

export interface SqlConnection {
  /** How the merchant made it, for messages. */
  readonly made: string;
  /** Runs one statement; answers its rows. */
  run(text: string, values: unknown[]): Promise<Row[]>;
  /** Runs several statements in one transaction, as one simple query (no values). */
  script(text: string): Promise<void>;
}

const SUPPORTED =
  'a pg (node-postgres) Pool, or a postgres.js sql (postgres(url)): an object with query() or a function with unsafe()';

/** The rows of whatever a driver answered: an array of rows, `{ rows }`, or a count. */
function rowsOf(answer: unknown): Row[] | number {
  if (Array.isArray(answer)) return answer as Row[];
  if (typeof answer === 'number') return answer;
  const rows = (answer as { rows?: unknown } | null)?.rows;
  if (Array.isArray(rows)) return rows as Row[];
  // pg answers a multi-statement query with one result per statement.
  throw new TypeError('the database answered a statement with neither rows nor a count');
}

const asRows = (answer: unknown): Row[] => {
  const rows = rowsOf(answer);
  return typeof rows === 'number' ? [] : rows;
};

/** The pools whose idle connections' errors the store already listens for. */
const listened = new WeakSet<object>();

/**
 * A `pg` Pool emits `error` when one of its idle connections fails (PostgreSQL restarted,
 * failed over, or ended the session), and Node ends a process whose emitter has no listener
 * for it: a database restart would take the shop down with it. The pool has dropped that
 * connection already and opens another for the next statement, so there is nothing to do but
 * listen; a statement that then fails is what the handler logs. Listening changes nothing for
 * listeners of the merchant's own.
 */
function listenForIdleErrors(client: unknown): void {
  const emitter = client as { on?: unknown };
  if (typeof emitter.on !== 'function' || listened.has(client as object)) return;
  listened.add(client as object);
  (client as { on(event: 'error', listener: () => void): unknown }).on('error', () => undefined);
}

/** The connection for `client`, or a TypeError naming what is supported. */
export function sqlConnection(client: unknown): SqlConnection {
  const shape = client as Record<string, unknown> | null | undefined;
  if (typeof shape?.unsafe === 'function') {
    const sql = client as PostgresJsLike;
    return {
      made: 'postgres.js sql',
      run: async (text, values) => asRows(await sql.unsafe(text, values, { prepare: false })),
      async script(text) {
        const pending = sql.unsafe(text) as PromiseLike<unknown> & { simple?: () => unknown };
        // The simple protocol runs several statements in one implicit transaction.
        await (typeof pending.simple === 'function'
          ? (pending.simple() as PromiseLike<unknown>)
          : pending);
      },
    };
  }
  if (typeof shape?.query === 'function') {
    const pool = client as PgPoolLike;
    listenForIdleErrors(client);
    return {
      made: 'pg Pool',
      run: async (text, values) => asRows(await pool.query(text, values)),
      async script(text) {
        // No values: pg sends a simple query, several statements in one implicit transaction.
        await pool.query(text);
      },
    };
  }
  throw new TypeError(
    `createPostgresStore needs ${SUPPORTED}; ${gotInstead(client, 'neither query() nor unsafe()')}`,
  );
}

const TX_SUPPORTED =
  'a pg client inside your transaction (its query()), a postgres.js transaction sql (its unsafe()), or { executeSql(text, values) }';

/**
 * Runs one statement in the merchant's transaction `tx`; answers how many rows it returned
 * or changed.
 */
export async function runInTransaction(
  tx: SqlTransaction,
  text: string,
  values: unknown[],
): Promise<number> {
  const shape = tx as unknown as Record<string, unknown> | null | undefined;
  let answer: unknown;
  if (typeof shape?.executeSql === 'function') {
    answer = await (tx as { executeSql(t: string, v: unknown[]): Promise<unknown> }).executeSql(
      text,
      values,
    );
  } else if (typeof shape?.unsafe === 'function') {
    // postgres.js's sql itself runs each statement in a transaction of its own, apart from the
    // order: told from a transaction's sql (and a reserved one) by end(), which only it has
    // (postgres.js 4 gives a transaction's sql a begin() too, for a savepoint).
    if (typeof shape.end === 'function') {
      throw new TypeError(
        'done(tx) was given the postgres.js sql itself: pass the sql of your transaction (sql.begin(async (tx) => { ...; await done(tx); }))',
      );
    }
    answer = await (tx as PostgresJsLike).unsafe(text, values, { prepare: false });
  } else if (typeof shape?.query === 'function') {
    // A pg Pool also has query(), but each of its calls may take another connection, outside
    // the transaction: only a client checked out of it (pool.connect()) is refused nothing here,
    // so the pool is told apart by what only a pool has.
    if (typeof shape.totalCount === 'number' && typeof shape.connect === 'function') {
      throw new TypeError(
        `done(tx) was given a pg Pool: pass the client inside your transaction (const tx = await pool.connect(); await tx.query('BEGIN') ...)`,
      );
    }
    answer = await (tx as PgPoolLike).query(text, values);
  } else {
    throw new TypeError(
      `done(tx) needs ${TX_SUPPORTED}; ${gotInstead(tx, 'neither query(), unsafe() nor executeSql()')}`,
    );
  }
  const rows = rowsOf(answer);
  return typeof rows === 'number' ? rows : rows.length;
}
