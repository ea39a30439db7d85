// One checkout per basket across instances: two handlers sharing one real Redis (through
// each client package), many requests for one basket at once, one checkout; and a basket
// that changes on one instance is seen changed on the other.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Sandbox } from '../../../src/sandbox/index.ts';
import type { Checkout } from '../../../src/schemas/index.ts';
import { type Harness, makeHandler, request, startSandbox } from '../server/fixtures.ts';
import { type ConnectedClient, connectClient, testRedisStore } from '../support/redis-clients.ts';
import { type RedisServer, startRedisServer } from '../support/redis-server.ts';

let sb: Sandbox;
let redis: RedisServer;
const clients: ConnectedClient[] = [];

before(async () => {
  [sb, redis] = await Promise.all([startSandbox(), startRedisServer()]);
});
after(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await Promise.all([sb?.close(), redis?.stop()]);
});

interface Order {
  basket: string;
  amount: number;
}

async function instance(kind: 'redis' | 'ioredis'): Promise<Harness> {
  const client = await connectClient(kind, redis.url);
  clients.push(client);
  return makeHandler(sb, {
    store: testRedisStore(client.client, { prefix: 'baskets-test:' }),
    rateLimit: false,
    resolveCheckout: (order) => ({
      reference: (order as Order).basket,
      amount: (order as Order).amount,
      currency: 'EUR',
    }),
  });
}

async function post(h: Harness, order: Order) {
  const res = await h.handle(request('POST', '/checkouts', { body: { order } }));
  assert.ok(res.status === 200 || res.status === 201, `answered ${res.status}`);
  return (await res.json()) as Checkout & { id: string };
}

describe('two instances on one Redis', () => {
  test('twenty requests at once for one basket, split between them: one checkout', async () => {
    const [a, b] = await Promise.all([instance('redis'), instance('ioredis')]);
    const basket = `basket-${process.pid}-race`;
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => post(i % 2 === 0 ? a : b, { basket, amount: 10 })),
    );
    const ids = new Set(answers.map((c) => c.id));
    console.log(`20 concurrent requests for one basket on 2 instances: ${ids.size} checkout(s)`);
    assert.equal(ids.size, 1);
    const listed = await fetch(`${sb.url}/v0.1/checkouts?checkout_reference=${basket}~2`, {
      headers: { authorization: `Bearer ${sb.apiKey}` },
    });
    assert.deepEqual(await listed.json(), [], 'no second checkout was made');
  });

  test('a basket changed on one instance is the new checkout on the other', async () => {
    const [a, b] = await Promise.all([instance('redis'), instance('ioredis')]);
    const basket = `basket-${process.pid}-changed`;
    const old = await post(a, { basket, amount: 10 });
    const changed = await post(b, { basket, amount: 14 });
    assert.notEqual(changed.id, old.id);
    assert.equal((await post(a, { basket, amount: 14 })).id, changed.id);
  });
});
