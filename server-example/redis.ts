/**
 * The shared payment store of the example, used when REDIS_URL is set: then every
 * instance of the shop runs each order's onPaid once between them. The `redis` package is
 * loaded only then, so the example runs without it installed.
 */
import { createRedisStore, type PaymentStore } from 'payment-widget/server';

export interface RedisStore {
  store: PaymentStore;
  close(): Promise<void>;
}

export async function connectRedisStore(
  url: string,
  log: (line: string) => void,
): Promise<RedisStore> {
  const { createClient } = await import('redis');
  const client = createClient({ url });
  // node-redis emits an error per reconnect attempt while Redis is away: say it once.
  let down = false;
  client.on('error', (error: Error) => {
    if (down) return;
    down = true;
    log(`redis: ${error.message}; payments keep answering, hooks wait for it`);
  });
  client.on('ready', () => {
    if (!down) return;
    down = false;
    log('redis: connected again');
  });
  // Not awaited: while Redis is down, connect() waits for it, and a shop (re)started during an
  // outage would not serve at all. Until the client is ready, the store fails its commands
  // at once: payments answer, hooks wait.
  client.connect().catch((error: Error) => log(`redis: ${error.message}`));
  return {
    store: createRedisStore(client),
    close: () => client.close(),
  };
}
