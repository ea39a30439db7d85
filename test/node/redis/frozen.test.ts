// A Redis that stops answering with its connection open (SIGSTOP: a hung machine, a lost
// network) under the README's shop: a new checkout costs one command timeout, not one per
// store call, through node-redis and through ioredis; once it answers again, the payment's
// hook runs, once.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Sandbox } from '../../../src/sandbox/index.ts';
import { scaled, until } from '../../shared/until.ts';
import {
  createCheckout,
  makeHandler,
  request,
  startSandbox,
  webhookRequest,
} from '../server/fixtures.ts';
import { cardBody } from '../support/cards.ts';
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
      await createCheckout(h); // the connection open while Redis answers
      redis.freeze();
      let elapsed: number;
      let id: string;
      try {
        const started = performance.now();
        ({ id } = await createCheckout(h));
        elapsed = performance.now() - started;
      } finally {
        redis.thaw();
      }
      // Each of its store calls (the rate counter, the basket's record read, the watchlist, the
      // record written) waited timeoutMs before.
      assert.ok(elapsed < 2 * timeoutMs, `${Math.round(elapsed)} ms, the timeout ${timeoutMs} ms`);
      // Answering again, the store is asked again: the payment's hook runs, once.
      const paid = await h.handle(
        request('PUT', `/checkouts/${id}`, { body: cardBody('4200000000000091') }),
      );
      assert.equal(((await paid.json()) as { status: string }).status, 'PAID');
      // The hook the PUT starts in the background may meet the quiet moment after the thaw (the
      // probe not back yet) and be left to the webhook, which the provider delivers again.
      await until('onPaid to run', async () => {
        if (h.paid.length === 0) await h.handle(webhookRequest(id));
        return h.paid.length > 0;
      });
      assert.equal((await h.handle(webhookRequest(id))).status, 204);
      assert.deepEqual(
        h.paid.map((c) => c.id),
        [id],
      );
    });
  });
}
