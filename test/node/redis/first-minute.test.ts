// A Redis outage in a new instance's first minute, before its first reconcile() call, loses
// no order: the sweep's watermark starts when the handler first reaches its store (when it is
// made), not at the first reconcile(). Real redis-server, killed and restarted on its data
// file; the checkouts created and paid while it is down are never tracked (their `watch`
// fails) and no webhook reaches the handler, so only the provider's list can bring them in.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Sandbox } from '../../../src/sandbox/index.ts';
import {
  createProviderClient,
  createRedisStore,
  type ProviderClient,
} from '../../../src/server/index.ts';
import { until } from '../../shared/until.ts';
import { createCheckout, makeHandler, startSandbox } from '../server/fixtures.ts';
import { cardBody } from '../support/cards.ts';
import { type ConnectedClient, connectClient } from '../support/redis-clients.ts';
import { type RedisServer, startRedisServer } from '../support/redis-server.ts';

let redis: RedisServer;
let sb: Sandbox;
let connected: ConnectedClient;
let provider: ProviderClient;

before(async () => {
  redis = await startRedisServer({ persistent: true });
  sb = await startSandbox();
  connected = await connectClient('ioredis', redis.url);
  provider = createProviderClient({ baseUrl: sb.url, apiKey: sb.apiKey });
});

after(async () => {
  await connected?.close();
  await sb?.close();
  await redis?.stop();
});

const ORDERS = 5;

test('orders paid while Redis is down before the first reconcile() are all fulfilled', async () => {
  const prefix = 'first-minute:';
  const h = makeHandler(sb, { store: createRedisStore(connected.client, { prefix }) });
  const watermark = () => connected.command('GET', `${prefix}sweep:{${sb.merchantCode}}`);
  // The handler reaches its store as it starts: the watermark is there before any reconcile().
  await until('the watermark', async () => typeof (await watermark()) === 'string');

  await redis.kill();
  const paid: string[] = [];
  for (let i = 0; i < ORDERS; i += 1) {
    const { id } = await createCheckout(h);
    const result = await provider.checkouts.process(id, cardBody('4200000000000091'));
    assert.equal(result.kind === 'checkout' && result.checkout.status, 'PAID');
    paid.push(id);
  }
  assert.equal(h.paid.length, 0, 'no report reached the handler');
  await redis.restart();
  await until(
    'Redis back',
    async () => (await connected.command('PING').catch(() => '')) === 'PONG',
  );

  // The first reconcile() of this instance, after the outage.
  const report = await h.handle.reconcile();
  assert.equal(report.ran, ORDERS, JSON.stringify(report));
  assert.deepEqual(h.paid.map((c) => c.id).sort(), [...paid].sort());
  // Once each, however often reconcile() runs.
  await h.handle.reconcile();
  assert.equal(h.paid.length, ORDERS);
});
