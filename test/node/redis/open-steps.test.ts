// A checkout's open step on a real Redis shared by two instances (one per client package):
// the step one instance was answered is given back by the other, kept for the documented
// time, and gone once the checkout is final. (Write and remove on a Cluster and under
// Sentinel: the record contract, support/records.ts.)
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Sandbox } from '../../../src/sandbox/index.ts';
import { OPEN_STEP_TTL_MS } from '../../../src/server/outcomes/open-steps.ts';
import { until } from '../../shared/until.ts';
import {
  createCheckout,
  type Harness,
  makeHandler,
  request,
  startSandbox,
} from '../server/fixtures.ts';
import { cardBody } from '../support/cards.ts';
import { type ConnectedClient, connectClient, testRedisStore } from '../support/redis-clients.ts';
import { type RedisServer, startRedisServer } from '../support/redis-server.ts';

const PREFIX = 'steps-test:';

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

async function instance(kind: 'redis' | 'ioredis'): Promise<Harness> {
  const client = await connectClient(kind, redis.url);
  clients.push(client);
  return makeHandler(sb, { store: testRedisStore(client.client, { prefix: PREFIX }) });
}

interface Answer {
  status?: string;
  next_step?: { payload?: Record<string, string> };
  payment_type?: string;
}

async function read(h: Harness, id: string): Promise<Answer> {
  const res = await h.handle(request('GET', `/checkouts/${id}`, { origin: null }));
  return (await res.json()) as Answer;
}

test('the step one instance was answered is given back by the other, for 20 minutes, until the checkout is final', async () => {
  const [a, b] = await Promise.all([instance('redis'), instance('ioredis')]);
  const admin = clients[0]!;
  const { id } = await createCheckout(a);
  const key = `${PREFIX}step:${sb.merchantCode}:${id}`;

  const res = await a.handle(
    request('PUT', `/checkouts/${id}`, { body: cardBody('4200000000000042') }),
  );
  assert.equal(res.status, 202);
  const step = ((await res.json()) as Answer).next_step;
  const elsewhere = await read(b, id);
  assert.deepEqual([elsewhere.status, elsewhere.payment_type], ['PENDING', 'card']);
  assert.deepEqual(elsewhere.next_step, step);
  const left = Number(await admin.command('PTTL', key));
  assert.ok(left > OPEN_STEP_TTL_MS - 60_000 && left <= OPEN_STEP_TTL_MS, `kept ${left} ms`);

  const payload = step?.payload ?? {};
  await fetch(payload.TermUrl ?? '', {
    method: 'POST',
    body: new URLSearchParams({ MD: payload.MD ?? '', PaRes: 'Y' }),
    redirect: 'manual',
  });
  const paid = await read(b, id);
  assert.equal(paid.status, 'PAID');
  assert.equal(paid.next_step, undefined);
  await until('the step to leave Redis', async () => (await admin.command('EXISTS', key)) === 0);
  assert.equal((await read(a, id)).next_step, undefined);
});
