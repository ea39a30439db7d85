// The two PostgreSQL client packages the store takes, each connected to a URL, with the
// merchant's transaction as each opens one: a pg Pool's client between BEGIN and COMMIT, and
// postgres.js's sql.begin() (3, and 4, whose transaction's sql has a begin() of its own).
import pg from 'pg';
import postgres from 'postgres';
import postgres4 from 'postgres4';
import type { PostgresClientLike, SqlTransaction } from '../../../src/server/index.ts';

export const CLIENT_KINDS = ['pg', 'postgres.js', 'postgres.js 4'] as const;
export type ClientKind = (typeof CLIENT_KINDS)[number];

export interface Connected {
  kind: ClientKind;
  client: PostgresClientLike;
  /** Runs `work` in a transaction: committed when it resolves, rolled back (and rethrown) when it throws. */
  transaction(work: (tx: SqlTransaction) => Promise<void>): Promise<void>;
  /** One statement outside any transaction, for the test's own reads. */
  query(text: string, values?: unknown[]): Promise<Record<string, unknown>[]>;
  close(): Promise<void>;
}

/** `options` go to postgres.js 4 only (`max_pipeline: 1` behind PgBouncer, as docs/stores.md says). */
export function connect(
  kind: ClientKind,
  url: string,
  max = 10,
  options: { max_pipeline?: number } = {},
): Connected {
  if (kind === 'pg') {
    const pool = new pg.Pool({ connectionString: url, max });
    // A server that went away is the tests' doing; the pool reconnects on the next query.
    pool.on('error', () => {});
    return {
      kind,
      client: pool,
      async transaction(work) {
        const tx = await pool.connect();
        // A server that goes away mid-transaction errors the client: the query rejects, and
        // the event must have a listener (a pg client's pitfall, in docs/stores.md).
        const ignore = () => {};
        tx.on('error', ignore);
        try {
          await tx.query('BEGIN');
          await work(tx);
          await tx.query('COMMIT');
        } catch (error) {
          await tx.query('ROLLBACK').catch(() => undefined);
          throw error;
        } finally {
          tx.off('error', ignore);
          tx.release();
        }
      },
      query: async (text, values) => (await pool.query(text, values)).rows,
      close: () => pool.end(),
    };
  }
  const common = { max, prepare: false, onnotice: () => {} };
  // Typed as 3's: the calls made here are the same in 4.
  const sql =
    kind === 'postgres.js'
      ? postgres(url, common)
      : (postgres4(url, { ...common, ...options }) as unknown as ReturnType<typeof postgres>);
  return {
    kind,
    client: sql,
    async transaction(work) {
      await sql.begin(async (tx) => {
        await work(tx);
      });
    },
    query: async (text, values) => [...(await sql.unsafe(text, values as never[]))],
    close: () => sql.end({ timeout: 1 }),
  };
}
