// The stores side by side in one run: PostgreSQL (pg Pool of 10, fsync off as in the tests:
// the database's own durability is not what is measured) and Redis (node-redis, one
// connection, no persistence), each on its own server started here on loopback and stopped
// at the end; the memory store as the floor. Per store: a hook's claim then its done mark
// (claim→complete) at 1, 16 and 64 concurrent callers; a rate-limit hit of two counters; and
// reconciliation's `due` taking 10 of a watched set of 1 000. The stores take turns per
// measure, so a busy moment of the machine falls on each alike.
import pg from 'pg';
import { createClient } from 'redis';
import {
  type CompleteStore,
  createMemoryStore,
  createPostgresStore,
  createRedisStore,
  postgresStoreSchema,
} from '../src/server/index.ts';
import { startPostgres } from '../test/node/support/postgres-server.ts';
import { startRedisServer } from '../test/node/support/redis-server.ts';
import { percentile } from './load.ts';

export interface StoreMeasure {
  store: string;
  measure: string;
  ops: number;
  p50: number;
  p99: number;
}

/** Runs `op` `ops` times, `concurrency` at once; the latency of each, in ms. */
async function timed(ops: number, concurrency: number, op: (i: number) => Promise<unknown>) {
  const latencies: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < ops) {
        const i = next++;
        const started = performance.now();
        await op(i);
        latencies.push(performance.now() - started);
      }
    }),
  );
  return latencies.sort((a, b) => a - b);
}

export async function measureStores(shape: { ops: number }): Promise<StoreMeasure[]> {
  const [postgres, redis] = await Promise.all([startPostgres(), startRedisServer()]);
  const pool = new pg.Pool({ connectionString: postgres.url, max: 10 });
  const redisClient = await createClient({ url: redis.url }).connect();
  try {
    await pool.query(postgresStoreSchema());
    const stores: [string, CompleteStore][] = [
      ['memory', createMemoryStore()],
      ['Redis', createRedisStore(redisClient)],
      ['PostgreSQL', createPostgresStore(pool)],
    ];
    const results: StoreMeasure[] = [];
    const run = `b${Date.now().toString(36)}`;
    const record = (store: string, measure: string, latencies: number[]) =>
      results.push({
        store,
        measure,
        ops: latencies.length,
        p50: percentile(latencies, 50),
        p99: percentile(latencies, 99),
      });
    for (const concurrency of [1, 16, 64]) {
      const ops = concurrency === 1 ? Math.ceil(shape.ops / 4) : shape.ops;
      for (const [name, store] of stores) {
        const latencies = await timed(ops, concurrency, async (i) => {
          const key = `onPaid:M1:${run}-${concurrency}-${i}`;
          if ((await store.claim(key, 'token', 30_000)) !== 'claimed')
            throw new Error('not claimed');
          await store.complete(key, 'token');
        });
        record(name, `claim→complete, ${concurrency} at once`, latencies);
      }
    }
    for (const [name, store] of stores) {
      const latencies = await timed(shape.ops, 16, (i) =>
        store.hit([
          { key: `rate:{M1}:client:${run}-${i % 50}`, windowMs: 60_000 },
          { key: `rate:{M1}:checkout:${run}-${i % 200}`, windowMs: 3_600_000 },
        ]),
      );
      record(name, 'hit (2 counters), 16 at once', latencies);
    }
    for (const [name, store] of stores) {
      const set = `open:{M-${name}-${run}}`;
      await Promise.all(Array.from({ length: 1_000 }, (_, i) => store.watch(set, `co_${i}`, i)));
      const latencies = await timed(Math.ceil(shape.ops / 4), 16, (i) =>
        // Each call takes 10 and holds them; `now` moves on so some are always due.
        store.due(set, 1_000 + i * 100, 10, 60_000),
      );
      record(name, 'due (10 of 1 000), 16 at once', latencies);
    }
    return results;
  } finally {
    await redisClient.close();
    await pool.end();
    await Promise.all([postgres.stop(), redis.stop()]);
  }
}
