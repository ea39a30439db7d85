// An onPaid that never returns (an ERP call without a timeout), on two instances sharing one
// real Redis: when its lease ends the instance running it says so, naming the hook, the
// checkout and hooks.leaseMs, before another report takes it over and runs it again
// alongside. Before, nothing was logged: the warning came only when a hook returned late,
// and a hook that never returns never does (it ran again at every lease, silently).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Sandbox } from '../../../src/sandbox/index.ts';
import { scaled, sleep, until } from '../../shared/until.ts';
import {
  makeHandler,
  paidAtProvider,
  request,
  startSandbox,
  webhookRequest,
} from '../server/fixtures.ts';
import { heldHook } from '../support/held-hook.ts';
import { type ConnectedClient, connectClient, testRedisStore } from '../support/redis-clients.ts';
import { type RedisServer, startRedisServer } from '../support/redis-server.ts';

let redis: RedisServer;
let sb: Sandbox;
let connected: ConnectedClient;

before(async () => {
  redis = await startRedisServer();
  sb = await startSandbox();
  connected = await connectClient('redis', redis.url);
});

after(async () => {
  await connected?.close();
  await sb?.close();
  await redis?.stop();
});

const LEASE_MS = Math.round(scaled(300));

interface Entry {
  level: string;
  message: string;
  problem?: string;
  hook?: string;
  checkoutId?: string;
}
const entries = (logs: string[]) => logs.map((line) => JSON.parse(line) as Entry);

test('a hook still running when its lease ends is logged then, before another instance runs it again', async () => {
  const store = testRedisStore(connected.client, { prefix: 'hung:' });
  // The first run never returns while the test runs; a later one returns at once.
  const hook = heldHook();
  const stuck = makeHandler(sb, { store, hooks: { leaseMs: LEASE_MS, onPaid: hook.run } });
  const other = makeHandler(sb, { store, hooks: { leaseMs: LEASE_MS, onPaid: hook.run } });
  const { id } = await paidAtProvider(sb, stuck);
  assert.equal((await stuck.handle(request('GET', `/checkouts/${id}`))).status, 200);
  await hook.entered;

  const overdue = (e: Entry) =>
    e.level === 'warn' && e.hook === 'onPaid' && e.checkoutId === id && /lease/.test(e.message);
  await until('the stuck instance to say its hook outlived its lease', () =>
    entries(stuck.logs).some(overdue),
  );
  const said = entries(stuck.logs).find(overdue)!;
  assert.match(
    said.message,
    new RegExp(`onPaid is still running after its lease \\(hooks\\.leaseMs, ${LEASE_MS} ms\\)`),
  );
  assert.match(said.message, /another report may run it again alongside/);
  assert.equal(hook.calls, 1, 'said when the lease ended, before any takeover');

  // The redelivered webhook, on the other instance, takes the claim over and runs it again.
  assert.equal((await other.handle(webhookRequest(id))).status, 204);
  assert.equal(hook.calls, 2);
  // The instance that took it over says so: with SET NX PX alone its claim looked like a
  // first one, and the log could not tell this second run from a first.
  const taken = entries(other.logs).filter((e) => e.problem === 'lease-taken-over');
  assert.equal(taken.length, 1, JSON.stringify(other.logs));
  assert.equal(taken[0]!.level, 'warn');
  assert.equal(taken[0]!.checkoutId, id);
  assert.match(
    taken[0]!.message,
    /^onPaid took over a claim whose lease .* it may have run twice$/,
  );
  assert.equal(
    entries(stuck.logs).find(overdue)!.problem,
    'lease-ran-out',
    'beside the stuck instance',
  );
  assert.ok(
    !entries(other.logs).some((e) => e.problem === 'lease-ran-out'),
    'the run that returned in time says nothing of its own lease',
  );
  hook.finish();
});

test('a hook that returns within its lease logs nothing about the lease', async () => {
  const store = testRedisStore(connected.client, { prefix: 'in-time:' });
  const h = makeHandler(sb, { store, hooks: { leaseMs: LEASE_MS } });
  const { id } = await paidAtProvider(sb, h);
  assert.equal((await h.handle(webhookRequest(id))).status, 204);
  assert.equal(h.paid.length, 1);
  // A timer left behind would fire at the lease's end: wait that out, then look.
  await sleep(LEASE_MS * 2);
  assert.deepEqual(
    entries(h.logs).filter((e) => e.hook !== undefined || e.message.includes('lease')),
    [],
  );
});
