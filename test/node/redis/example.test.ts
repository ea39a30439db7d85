// The server example with REDIS_URL's option set: its handler keeps the hooks' claims in
// that Redis (a real redis-server), so a second shop instance on the same Redis runs no
// order's onPaid again; closing the example closes its Redis client too.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { type ServerExample, startServerExample } from '../../../server-example/index.ts';
import { createSandbox, type Sandbox } from '../../../src/sandbox/index.ts';
import { createProviderClient } from '../../../src/server/index.ts';
import { until, within } from '../../shared/until.ts';
import { cardBody } from '../support/cards.ts';
import { type ConnectedClient, connectClient } from '../support/redis-clients.ts';
import { type RedisServer, startRedisServer } from '../support/redis-server.ts';

let redis: RedisServer | undefined;
let look: ConnectedClient | undefined;
let sandbox: Sandbox | undefined;
const shops: ServerExample[] = [];
const paid: string[] = [];
const lines: string[] = [];

before(async () => {
  redis = await startRedisServer();
  look = await connectClient('redis', redis.url);
  sandbox = await createSandbox({ webhook: { attempts: 1 } });
  for (let i = 0; i < 2; i += 1) {
    shops.push(
      await startServerExample({
        providerBaseUrl: sandbox.url,
        providerApiKey: sandbox.apiKey,
        merchantCode: sandbox.merchantCode,
        port: 0,
        redisUrl: redis.url,
        log: (line) => lines.push(line),
        onPaid: (checkout) => {
          paid.push(checkout.id ?? '');
        },
      }),
    );
  }
});

after(async () => {
  for (const shop of shops) await shop.close();
  await sandbox?.close();
  await look?.close();
  await redis?.stop();
});

test('two example shops on one REDIS_URL run onPaid once for an order both confirm', async () => {
  const [first, second] = shops.map((shop) => new URL('payments', shop.url).href);
  const created = await fetch(`${first}/checkouts`, {
    method: 'POST',
    headers: { origin: new URL(shops[0]!.url).origin, 'content-type': 'application/json' },
    body: JSON.stringify({ order: { sku: 'poster' } }),
  });
  assert.equal(created.status, 201);
  const { id } = (await created.json()) as { id: string };
  const provider = createProviderClient({ baseUrl: sandbox!.url, apiKey: sandbox!.apiKey });
  await provider.checkouts.process(id, cardBody('4200000000000091'));
  for (const url of [first, second, first, second]) {
    const res = await fetch(`${url}/checkouts/${id}`);
    assert.equal(((await res.json()) as { status: string }).status, 'PAID');
  }
  // The claim is recorded done just after onPaid returns: waited for, then no run can start.
  const key = `payment-widget:onPaid:${sandbox!.merchantCode}:${id}`;
  let claim = '';
  await until(
    () => `the claim ${key} to be done (it is ${claim})`,
    async () => {
      claim = String(await look!.command('GET', key));
      return claim.startsWith('done:');
    },
  );
  assert.deepEqual(paid, [id]);
  assert.ok(lines.includes('claims of the payment hooks shared in Redis'));
});

test('an example shop started while its Redis is down takes payments, and runs onPaid once Redis is back', async () => {
  // A deploy or a crash restarts the shop during a Redis outage: it must serve, not wait for
  // Redis before it listens (node-redis's connect() waits while Redis is down).
  const gone = await startRedisServer();
  await gone.kill();
  const paidHere: string[] = [];
  const said: string[] = [];
  const shop = await within(
    'the shop to start while its Redis is down',
    startServerExample({
      providerBaseUrl: sandbox!.url,
      providerApiKey: sandbox!.apiKey,
      merchantCode: sandbox!.merchantCode,
      port: 0,
      redisUrl: gone.url,
      reconcileIntervalMs: 0,
      log: (line) => said.push(line),
      onPaid: (checkout) => {
        paidHere.push(checkout.id ?? '');
      },
    }),
  );
  try {
    const payments = new URL('payments', shop.url).href;
    const created = await fetch(`${payments}/checkouts`, {
      method: 'POST',
      headers: { origin: new URL(shop.url).origin, 'content-type': 'application/json' },
      body: JSON.stringify({ order: { sku: 'poster' } }),
    });
    assert.equal(created.status, 201);
    const { id } = (await created.json()) as { id: string };
    const provider = createProviderClient({ baseUrl: sandbox!.url, apiKey: sandbox!.apiKey });
    await provider.checkouts.process(id, cardBody('4200000000000091'));
    const status = async () => {
      const res = await fetch(`${payments}/checkouts/${id}`);
      assert.equal(res.status, 200);
      return ((await res.json()) as { status: string }).status;
    };
    assert.equal(await status(), 'PAID', 'the shopper sees the payment while Redis is down');
    assert.deepEqual(paidHere, [], 'no hook runs without its claim');
    assert.ok(said.some((line) => line.startsWith('redis: ') && line.includes('hooks wait')));
    await gone.restart();
    // The shopper's next poll, once the client is ready again, reports the order.
    await until('onPaid to run once Redis is back', async () => {
      assert.equal(await status(), 'PAID');
      return paidHere.length > 0;
    });
    assert.deepEqual(paidHere, [id]);
  } finally {
    await shop.close();
    await gone.stop();
  }
});
