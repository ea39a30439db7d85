// A failover that loses writes, made the way Jepsen-style tests make one: the primary keeps
// acknowledging writes while its replica stops receiving them (a gate holds its replication
// stream back), claims are taken and hooks run meanwhile, and the primary is SIGKILLed. The
// replica promoted never saw those claims. Two handlers share the topology, each with its own
// checkouts and keys, every webhook lost:
// - `plain` (the default): its hooks ran before the kill, and run again once reconciliation
//   reports the checkouts to the new primary, which has no claim for them. Counted.
// - `waiting` (`waitForReplicas: 1`): no claim counts before a replica has it, so no hook ran
//   while the replica was cut off; they run once, after the failover, once the new primary has
//   a replica again (the old one, restarted and made its replica).
// The claim's cost in time is measured on the healthy topology first.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Sandbox } from '../../../src/sandbox/index.ts';
import { createRedisStore, type RedisStoreOptions } from '../../../src/server/index.ts';
import { scaled, until } from '../../shared/until.ts';
import {
  createCheckout,
  type Harness,
  makeHandler,
  request,
  startSandbox,
} from '../server/fixtures.ts';
import { cardBody } from '../support/cards.ts';
import { type ConnectedClient, connectClient, testRedisStore } from '../support/redis-clients.ts';
import { cli, type RedisSentinel, startRedisSentinel } from '../support/redis-topologies.ts';

const CHECKOUTS = 8;
const WAIT = { replicas: 1, timeoutMs: scaled(200) };

let sentinel: RedisSentinel;
let sb: Sandbox;
const connections: ConnectedClient[] = [];

before(async () => {
  sentinel = await startRedisSentinel({ gated: true });
  sb = await startSandbox();
});

after(async () => {
  await Promise.all(connections.map((c) => c.close()));
  await sb?.close();
  await sentinel?.stop();
});

async function connected(): Promise<ConnectedClient> {
  const connection = await connectClient('ioredis', sentinel.target);
  connections.push(connection);
  return connection;
}

async function handler(name: string, options: RedisStoreOptions = {}): Promise<Harness> {
  const { client } = await connected();
  return makeHandler(sb, {
    // Its own return_url: each handler's reconciliation finds only its own checkouts.
    publicUrl: `http://${name}.localhost:9/payments`,
    store: testRedisStore(client, { prefix: `${name}:`, ...options }),
  });
}

/** The median of `count` claims, each on a fresh key, in milliseconds. */
async function claimMs(options: RedisStoreOptions, count = 200): Promise<number> {
  const store = testRedisStore((await connected()).client, { prefix: 'timing:', ...options });
  const times: number[] = [];
  for (let i = 0; i < count; i += 1) {
    const started = performance.now();
    assert.equal(await store.claim(`onPaid:M:${crypto.randomUUID()}`, 't', 5_000), 'claimed');
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(count / 2)]!;
}

/** Created and paid through `h`, as the widget does: PAID at once, its hook in the background. */
async function paidThrough(h: Harness): Promise<string> {
  const { id } = await createCheckout(h);
  const res = await h.handle(
    request('PUT', `/checkouts/${id}`, { body: cardBody('4200000000000091') }),
  );
  assert.equal(res.status, 200);
  assert.equal(((await res.json()) as { status: string }).status, 'PAID');
  return id;
}

const runs = (h: Harness, id: string) => h.paid.filter((c) => c.id === id).length;

test('a failover that loses writes: hooks run twice without waitForReplicas, once with it', {
  timeout: scaled(90_000),
}, async () => {
  const gate = sentinel.gate!;
  const plainMs = await claimMs({});
  const waitingMs = await claimMs({ waitForReplicas: WAIT });
  const plain = await handler('plain');
  const waiting = await handler('waiting', { waitForReplicas: WAIT });
  // The watermarks start now, and reach the replica: without them there, the new primary
  // would start the sweep afresh, and plain's lost claims would never be found again.
  await plain.handle.reconcile();
  await waiting.handle.reconcile();
  await sentinel.replicated();

  gate.hold();
  const plainIds: string[] = [];
  const waitingIds: string[] = [];
  for (let i = 0; i < CHECKOUTS; i += 1) {
    plainIds.push(await paidThrough(plain));
    waitingIds.push(await paidThrough(waiting));
  }
  await until('plain’s hooks to run', () => plainIds.every((id) => runs(plain, id) === 1));
  const refused = () => waiting.logs.filter((l) => l.includes('replicas within')).length;
  await until('waiting’s claims to find no replica', () => refused() >= CHECKOUTS);
  assert.ok(
    waitingIds.every((id) => runs(waiting, id) === 0),
    'no hook ran unreplicated',
  );

  const failover = sentinel.nextFailover();
  await sentinel.primary.kill();
  const killedAt = Date.now();
  await gate.cut();
  const announced = await failover.announced;
  // The old primary comes back empty, as the new primary's replica.
  await sentinel.primary.restart();
  await cli(sentinel.primary.port, 'REPLICAOF', '127.0.0.1', String(sentinel.replica.port));
  const replicaAt = Date.now();

  let reconciled = 0;
  await until(
    () => `every hook to run (plain ${plain.paid.length}, waiting ${waiting.paid.length})`,
    async () => {
      if (Date.now() - reconciled >= 100) {
        reconciled = Date.now();
        await Promise.all([plain, waiting].map((h) => h.handle.reconcile().catch(() => undefined)));
      }
      return [
        ...plainIds.map((id) => runs(plain, id)),
        ...waitingIds.map((id) => runs(waiting, id)),
      ].every((n) => n >= 1);
    },
    30_000,
  );
  const waitingDone = Date.now();
  // Then one pass of plain's that reached the store and the provider whole, so that the
  // count below is final: a pass that failed while the new primary was being found has not
  // swept yet, and waiting's hooks may have run in a pass where plain's did not get through.
  await until('a whole reconciliation pass of plain’s after the failover', async () => {
    const report = await plain.handle.reconcile().catch(() => undefined);
    return report !== undefined && report.errors === 0;
  });
  const plainTwice = plainIds.filter((id) => runs(plain, id) > 1).length;
  const waitingTwice = waitingIds.filter((id) => runs(waiting, id) > 1).length;
  console.log(
    `failover with ${CHECKOUTS} claims per handler held back from the replica: ` +
      `without waitForReplicas ${plainTwice} of ${CHECKOUTS} hooks ran twice (claim median ${plainMs.toFixed(2)} ms); ` +
      `with waitForReplicas ${WAIT.replicas} (timeout ${WAIT.timeoutMs} ms) ${waitingTwice} of ${CHECKOUTS} ran twice ` +
      `(claim median ${waitingMs.toFixed(2)} ms), its hooks ran once a replica was back: ` +
      `${waitingDone - killedAt} ms after the kill, ${waitingDone - announced} ms after the promotion was announced, ` +
      `${waitingDone - replicaAt} ms after the old primary was made a replica`,
  );
  assert.equal(waitingTwice, 0);
  assert.ok(waitingIds.every((id) => runs(waiting, id) === 1));
  // The fault did lose writes: else this measures nothing.
  assert.ok(plainTwice > 0, 'some of plain’s hooks ran again');
});

test('waitForReplicas and prefix are checked when the store is made', async () => {
  const { client } = await connected();
  assert.throws(
    () => createRedisStore(client, { waitForReplicas: 1 as unknown as typeof WAIT }),
    /waitForReplicas must be \{ replicas, timeoutMs \}/,
  );
  assert.throws(
    () => createRedisStore(client, { prefix: 7 as unknown as string }),
    /prefix must be a string/,
  );
  assert.throws(
    () => createRedisStore(client, { waitForReplicas: { replicas: 0, timeoutMs: 100 } }),
    /waitForReplicas.replicas/,
  );
  assert.throws(
    () => createRedisStore(client, { waitForReplicas: { replicas: 1, timeoutMs: 5_000 } }),
    /shorter than commandTimeoutMs/,
  );
});
