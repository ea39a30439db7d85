// A Redis that stops answering with its connection open (SIGSTOP: a hung machine, a lost
// network) under the README's shop: a new checkout costs one command timeout, not one per
// store call, through node-redis and through ioredis; once it answers again, the payment's
// hook runs, once.
import { after, before, describe, test } from 'node:test';
import type { Sandbox } from '../../../src/sandbox/index.ts';
import { scaled } from '../../shared/until.ts';
import { makeHandler, startSandbox } from '../server/fixtures.ts';
import { frozenCostsOneTimeout } from '../support/frozen-store.ts';
import { type ConnectedClient, connectClient, testRedisStore } from '../support/redis-clients.ts';
import { type RedisServer, startRedisServer } from '../support/redis-server.ts';

let sb: Sandbox;
const servers: RedisServer[] = [];
const clients: ConnectedClient[] = [];

before(async () => {
  sb = await startSandbox();
});
after(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await Promise.all([sb?.close(), ...servers.map((s) => s.stop())]);
});

for (const kind of ['redis', 'ioredis'] as const) {
  describe(kind, () => {
    test('a Redis that stops answering costs a new checkout one command timeout, not one per call', async (t) => {
      t.mock.method(console, 'error', () => {});
      t.mock.method(console, 'warn', () => {});
      const redis = await startRedisServer();
      servers.push(redis);
      const connected = await connectClient(kind, redis.url);
      clients.push(connected);
      const timeoutMs = scaled(1_000);
      // As the README's shop: a basket's checkout, its record read and written in the store.
      let basket = 0;
      const h = makeHandler(sb, {
        store: testRedisStore(connected.client, { commandTimeoutMs: timeoutMs }),
        resolveCheckout: () => ({
          amount: 10,
          currency: 'EUR',
          reference: `${kind}-basket-${++basket}`,
        }),
      });
      await frozenCostsOneTimeout(h, timeoutMs, redis);
    });
  });
}
