// A shop on PostgreSQL, as the docs teach it: the handler's store in the shop's own database
// (its own small pool), and onPaid writing the order and calling done(tx) in one transaction.
// Used in the test's process, and in a child process that is killed at a point of the hook
// (`crashAt`): before done, between done and COMMIT, or after COMMIT.
import type { Sandbox } from '../../../src/sandbox/index.ts';
import { createPostgresStore, type PaidCheckout } from '../../../src/server/index.ts';
import { scaled } from '../../shared/until.ts';
import { type Harness, makeHandler } from '../server/fixtures.ts';
import { type Connected, connect } from './clients.ts';

export type CrashPoint = 'before-done' | 'after-done' | 'after-commit';

export const ORDERS_TABLE =
  'CREATE TABLE IF NOT EXISTS orders (checkout_id text NOT NULL, by text NOT NULL)';

export interface Shop {
  h: Harness;
  close(): Promise<void>;
}

export function postgresShop(
  sb: Pick<Sandbox, 'url' | 'apiKey' | 'merchantCode'>,
  url: string,
  options: {
    name: string;
    leaseMs: number;
    crashAt?: CrashPoint;
    atCrash?: () => void;
    /** Awaited between done(tx) and COMMIT, with the checkout's id. */
    afterDone?: (id: string) => Promise<void>;
  },
): Shop {
  const orders: Connected = connect('pg', url, 10);
  const storePool: Connected = connect('pg', url, 3);
  const hang = async (point: CrashPoint) => {
    if (options.crashAt !== point) return;
    options.atCrash?.();
    await new Promise(() => {});
  };
  const h = makeHandler(sb as Sandbox, {
    store: createPostgresStore(storePool.client, { commandTimeoutMs: scaled(2_000) }),
    hooks: {
      leaseMs: options.leaseMs,
      async onPaid(checkout: PaidCheckout, { done }) {
        await orders.transaction(async (tx) => {
          const client = tx as { query(t: string, v: unknown[]): Promise<unknown> };
          await client.query('INSERT INTO orders (checkout_id, by) VALUES ($1, $2)', [
            checkout.id,
            options.name,
          ]);
          await hang('before-done');
          await done(tx);
          await options.afterDone?.(checkout.id);
          await hang('after-done');
        });
        await hang('after-commit');
      },
    },
  });
  return {
    h,
    close: async () => {
      await Promise.all([orders.close(), storePool.close()]);
    },
  };
}
