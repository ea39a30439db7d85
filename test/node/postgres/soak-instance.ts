// One shop instance of the soak (soak.test.ts) on node:http on a free loopback port: the
// handler with the PostgreSQL store, and onPaid writing the basket's order with done(tx). Run
// in the test's process (`startInstance`) or, for the one that is killed, in a child
// (`PW_SOAK` set): it tells the parent its port, and `hook` each time a hook is inside its
// transaction after done; from the `dieAt`-th hook on it stays there (to be SIGKILLed).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import {
  createPaymentHandler,
  createPostgresStore,
  type PaymentHandler,
  toNodeListener,
} from '../../../src/server/index.ts';
import { scaled } from '../../shared/until.ts';

export interface SoakInstanceConfig {
  name: string;
  providerUrl: string;
  apiKey: string;
  merchantCode: string;
  publicUrl: string;
  databaseUrl: string;
  leaseMs: number;
  /** The hook run (1-based) at which this instance stops inside the transaction, after done. */
  dieAt?: number;
}

export async function startInstance(
  config: SoakInstanceConfig,
  onHook: (run: number) => void = () => {},
): Promise<{ port: number; handler: PaymentHandler; close(): Promise<void> }> {
  const orders = new pg.Pool({ connectionString: config.databaseUrl, max: 8 });
  const storePool = new pg.Pool({ connectionString: config.databaseUrl, max: 4 });
  orders.on('error', () => {});
  storePool.on('error', () => {});
  let runs = 0;
  const handler = createPaymentHandler({
    provider: {
      baseUrl: config.providerUrl,
      apiKey: config.apiKey,
      merchantCode: config.merchantCode,
    },
    publicUrl: config.publicUrl,
    allowedOrigins: ['https://shop.example'],
    resultPages: { success: '/thanks', failure: '/sorry' },
    resolveCheckout: (order) => ({
      amount: 10,
      currency: 'EUR',
      reference: String((order as { basket: unknown }).basket),
    }),
    rateLimit: false,
    store: createPostgresStore(storePool, { commandTimeoutMs: scaled(5_000) }),
    hooks: {
      leaseMs: config.leaseMs,
      async onPaid(checkout, { done }) {
        runs += 1;
        const run = runs;
        const tx = await orders.connect();
        // While held, as docs/stores.md does: the pool keeps the client, and a listener left
        // on it would pile up, one a hook.
        const lost = () => {};
        tx.on('error', lost);
        try {
          await tx.query('BEGIN');
          await tx.query('INSERT INTO orders (basket, checkout_id, by) VALUES ($1, $2, $3)', [
            checkout.checkout_reference,
            checkout.id,
            config.name,
          ]);
          await done(tx);
          onHook(run);
          if (config.dieAt !== undefined && run >= config.dieAt) await new Promise(() => {});
          await tx.query('COMMIT');
        } catch (error) {
          await tx.query('ROLLBACK').catch(() => undefined);
          throw error;
        } finally {
          tx.off('error', lost);
          tx.release();
        }
      },
    },
  });
  const server = createServer(toNodeListener(handler));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    handler,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await Promise.all([orders.end(), storePool.end()]);
    },
  };
}

if (process.env.PW_SOAK !== undefined) {
  const config = JSON.parse(process.env.PW_SOAK) as SoakInstanceConfig;
  const { port } = await startInstance(config, (run) => process.send?.({ type: 'hook', run }));
  process.send?.({ type: 'ready', port });
}
