// One real Redis without an append-only file, SIGKILLed and started again empty, as
// docs/server.md says of it ("One Redis", and the sweep's watermark): the order paid while it
// was away, whose every report was lost, is found by the next reconcile() in the provider's
// list, from the last watermark the running handler saw; and an order fulfilled just before,
// whose done mark went with the data, runs its hook again (it does not start at the present).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Sandbox } from '../../../src/sandbox/index.ts';
import { until } from '../../shared/until.ts';
import { makeHandler, paidAtProvider, startSandbox, webhookRequest } from '../server/fixtures.ts';
import { type ConnectedClient, connectClient, testRedisStore } from '../support/redis-clients.ts';
import { type RedisServer, startRedisServer } from '../support/redis-server.ts';

let redis: RedisServer;
let sb: Sandbox;
let connected: ConnectedClient;

before(async () => {
  redis = await startRedisServer();
  sb = await startSandbox();
  connected = await connectClient('ioredis', redis.url);
});

after(async () => {
  await connected?.close();
  await sb?.close();
  await redis?.stop();
});

test('a Redis restarted empty: the order paid meanwhile is found, the one just before runs again', async () => {
  const h = makeHandler(sb, { store: testRedisStore(connected.client) });
  assert.equal((await h.handle.reconcile()).ran, 0, 'the watermark is placed');
  const before = await paidAtProvider(sb, h);
  assert.equal((await h.handle(webhookRequest(before.id))).status, 204);

  await redis.kill();
  // Paid while Redis is away; its webhook is lost and the shopper never comes back.
  const meanwhile = await paidAtProvider(sb, h);
  await redis.restart();
  await until('the client to reach the empty Redis', async () => {
    const keys = await connected.command('DBSIZE').catch(() => undefined);
    return keys !== undefined && Number(keys) === 0;
  });

  const report = await h.handle.reconcile();
  assert.equal(report.ran, 2);
  assert.deepEqual(h.paid.map((c) => c.id).sort(), [before.id, before.id, meanwhile.id].sort());
  // Marked done again: the next call runs nothing.
  assert.equal((await h.handle.reconcile()).ran, 0);
});
