/**
 * The PostgreSQL store's tables, as SQL for the merchant's own migrations
 * (`postgresStoreSchema()`), or created at start under an advisory lock (`createTables`).
 *
 * | table | holds |
 * |---|---|
 * | `payment_widget_claims` | a hook's claim: `running` under a token until `expires_at` (the lease), then `done` for days |
 * | `payment_widget_watch` | the watched checkouts: a set name, a checkout id, when it is next due (`check_at`, ms since the epoch) |
 * | `payment_widget_counters` | a rate counter's hits in its window, which ends at `expires_at` |
 * | `payment_widget_records` | a basket's record or a checkout's open step, until `expires_at` |
 *
 * Every row carries its own end (`expires_at`): the statements skip rows past it, and the
 * store deletes a bounded batch of them now and then (postgres.ts), so no timer or job is needed.
 */

export interface PostgresSchemaOptions {
  /** The schema the tables live in; default: the first of the connection's `search_path`. */
  schema?: string;
}

/** The tables' names, quoted and qualified by the schema when one is given. */
export interface TableNames {
  claims: string;
  watch: string;
  counters: string;
  records: string;
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_$]{0,62}$/;

export function tableNames(options: PostgresSchemaOptions = {}): TableNames {
  const { schema } = options;
  if (schema !== undefined && (typeof schema !== 'string' || !IDENTIFIER.test(schema))) {
    throw new TypeError(
      'schema must be a PostgreSQL identifier: letters, digits, _ and $, at most 63, not starting with a digit',
    );
  }
  const qualify = (table: string) =>
    schema === undefined ? `"${table}"` : `"${schema}"."${table}"`;
  return {
    claims: qualify('payment_widget_claims'),
    watch: qualify('payment_widget_watch'),
    counters: qualify('payment_widget_counters'),
    records: qualify('payment_widget_records'),
  };
}

/**
 * The SQL that creates the store's tables and indexes (idempotent: `IF NOT EXISTS`), for the
 * merchant's migrations. `createPostgresStore(client, { createTables: true })` runs the same
 * at start, under an advisory lock, in one transaction.
 */
export function postgresStoreSchema(options: PostgresSchemaOptions = {}): string {
  const t = tableNames(options);
  return `${options.schema === undefined ? '' : `CREATE SCHEMA IF NOT EXISTS "${options.schema}";\n`}CREATE TABLE IF NOT EXISTS ${t.claims} (
  key text PRIMARY KEY,
  token text NOT NULL,
  state text NOT NULL CHECK (state IN ('running', 'done')),
  expires_at timestamptz NOT NULL
);
CREATE INDEX IF NOT EXISTS "payment_widget_claims_expires_at" ON ${t.claims} (expires_at);
CREATE TABLE IF NOT EXISTS ${t.watch} (
  set_name text NOT NULL,
  id text NOT NULL,
  check_at bigint NOT NULL,
  expires_at timestamptz NOT NULL,
  PRIMARY KEY (set_name, id)
);
CREATE INDEX IF NOT EXISTS "payment_widget_watch_due" ON ${t.watch} (set_name, check_at);
CREATE INDEX IF NOT EXISTS "payment_widget_watch_expires_at" ON ${t.watch} (expires_at);
CREATE TABLE IF NOT EXISTS ${t.counters} (
  key text PRIMARY KEY,
  hits integer NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX IF NOT EXISTS "payment_widget_counters_expires_at" ON ${t.counters} (expires_at);
CREATE TABLE IF NOT EXISTS ${t.records} (
  key text PRIMARY KEY,
  value text NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX IF NOT EXISTS "payment_widget_records_expires_at" ON ${t.records} (expires_at);
`;
}
