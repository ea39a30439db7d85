// Crashes around onPaid's transaction, with the claims in the shop's PostgreSQL: an instance
// SIGKILLed before done(tx), between done and COMMIT, and after COMMIT; PostgreSQL stopped
// at once (`-m immediate`) and started again while hooks were inside their transactions; and
// a streaming replica promoted after its primary was killed. Each time, every paid order ends
// with exactly one order row.
import assert from 'node:assert/strict';
import { type ChildProcess, fork } from 'node:child_process';
import { once } from 'node:events';
import { after, before, test } from 'node:test';
import type { Sandbox } from '../../../src/sandbox/index.ts';
import { postgresStoreSchema } from '../../../src/server/index.ts';
import { scaled, until } from '../../shared/until.ts';
import { paidAtProvider, startSandbox, webhookRequest } from '../server/fixtures.ts';
import { type PostgresServer, startPostgres, startReplica } from '../support/postgres-server.ts';
import { connect } from './clients.ts';
import { type CrashPoint, ORDERS_TABLE, postgresShop, type Shop } from './shop.ts';

/** Whole seconds: the webhook's Retry-After says it. */
const LEASE_MS = Math.ceil(scaled(1_000) / 1000) * 1000;

let sb: Sandbox;
let primary: PostgresServer;
const cleanup: (() => Promise<void>)[] = [];

before(async () => {
  [sb, primary] = await Promise.all([startSandbox(), startPostgres()]);
  const admin = connect('pg', primary.url);
  await admin.query(postgresStoreSchema() + ORDERS_TABLE);
  await admin.close();
});

after(async () => {
  for (const step of cleanup.reverse()) await step();
  await primary?.stop();
  await sb?.close();
});

/** The order rows of `id`: who wrote each. */
async function orders(url: string, id: string): Promise<unknown[]> {
  const c = connect('pg', url, 1);
  try {
    return (await c.query('SELECT by FROM orders WHERE checkout_id = $1', [id])).map((r) => r.by);
  } finally {
    await c.close();
  }
}

/** Reports `id` through `shop`'s webhook until it answers 204, as the provider's retries would. */
async function reportUntilDone(shop: Shop, id: string): Promise<void> {
  await until(
    `the webhook of ${id} to be answered 204`,
    async () => (await shop.h.handle(webhookRequest(id))).status === 204,
    30_000,
  );
}

function startDoomed(crashAt: CrashPoint): Promise<ChildProcess> {
  const child = fork(new URL('./doomed.ts', import.meta.url), {
    env: {
      ...process.env,
      PW_SHOP: JSON.stringify({
        sandbox: { url: sb.url, apiKey: sb.apiKey, merchantCode: sb.merchantCode },
        url: primary.url,
        leaseMs: LEASE_MS,
        crashAt,
      }),
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  cleanup.push(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  return new Promise((resolve, reject) => {
    child.once('message', () => resolve(child));
    child.once('exit', (code) => reject(new Error(`the doomed instance exited (${code})`)));
  });
}

const who: Record<CrashPoint, string> = {
  // Killed before its transaction marked anything: the survivor fulfils after the lease.
  'before-done': 'survivor',
  // Its transaction held the mark uncommitted: the server rolls it back when the connection
  // drops, and the survivor fulfils after the lease.
  'after-done': 'survivor',
  // Its transaction committed order and mark together: the survivor finds it done.
  'after-commit': 'doomed',
};

for (const crashAt of ['before-done', 'after-done', 'after-commit'] as const) {
  test(`an instance killed ${crashAt.replace('-', ' ')}: the order is fulfilled exactly once`, async () => {
    const doomed = await startDoomed(crashAt);
    const survivor = postgresShop(sb, primary.url, { name: 'survivor', leaseMs: LEASE_MS });
    cleanup.push(survivor.close);
    const { id } = await paidAtProvider(sb, survivor.h);
    const atCrash = once(doomed, 'message');
    doomed.send({ id });
    await atCrash;
    const exited = once(doomed, 'exit');
    doomed.kill('SIGKILL');
    await exited;
    await reportUntilDone(survivor, id);
    assert.deepEqual(await orders(primary.url, id), [who[crashAt]]);
    // And it stays so: a later report runs nothing.
    await reportUntilDone(survivor, id);
    assert.deepEqual(await orders(primary.url, id), [who[crashAt]]);
    // A survivor that ran the hook over the dead one's claim says so, once: its log tells
    // that run from a first one.
    const said = survivor.h.logs
      .map((line) => JSON.parse(line) as { problem?: string; checkoutId?: string })
      .filter((e) => e.problem === 'lease-taken-over')
      .map((e) => e.checkoutId);
    assert.deepEqual(said, who[crashAt] === 'survivor' ? [id] : []);
  });
}

test('PostgreSQL stopped at once and started again while hooks are inside their transactions: each order once', async () => {
  const held = new Set<string>();
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let inside = () => {};
  const allInside = new Promise<void>((resolve) => {
    inside = resolve;
  });
  const ids: string[] = [];
  const shop = postgresShop(sb, primary.url, {
    name: 'shop',
    leaseMs: LEASE_MS,
    async afterDone(id) {
      if (!ids.slice(3).includes(id)) return;
      held.add(id);
      if (held.size === 3) inside();
      await released;
    },
  });
  cleanup.push(shop.close);
  for (let i = 0; i < 6; i += 1) ids.push((await paidAtProvider(sb, shop.h)).id);
  // Three fulfilled before the crash; three inside their transactions when it comes.
  for (const id of ids.slice(0, 3)) await reportUntilDone(shop, id);
  const reports = ids.slice(3).map((id) => shop.h.handle(webhookRequest(id)));
  await allInside;
  await primary.crash();
  release();
  const answers = await Promise.all(reports);
  assert.ok(
    answers.every((a) => a.status >= 500),
    answers.map((a) => a.status).join(' '),
  );
  await primary.start();
  for (const id of ids) await reportUntilDone(shop, id);
  for (const id of ids) assert.deepEqual(await orders(primary.url, id), ['shop'], id);
});

test('a replica promoted after its primary was killed: each order once on the new primary', async () => {
  const replica = await startReplica(primary);
  cleanup.push(replica.stop);
  const before = postgresShop(sb, primary.url, { name: 'before', leaseMs: LEASE_MS });
  cleanup.push(before.close);
  const ids: string[] = [];
  for (let i = 0; i < 6; i += 1) ids.push((await paidAtProvider(sb, before.h)).id);
  // Four fulfilled on the primary (the replica may or may not have received them), two not.
  for (const id of ids.slice(0, 4)) await reportUntilDone(before, id);
  await primary.crash();
  await replica.promote();
  const afterwards = postgresShop(sb, replica.url, { name: 'after', leaseMs: LEASE_MS });
  cleanup.push(afterwards.close);
  for (const id of ids) await reportUntilDone(afterwards, id);
  for (const id of ids) {
    const rows = await orders(replica.url, id);
    // Order and mark replicate in one transaction: both arrived, or neither and it ran again.
    assert.equal(rows.length, 1, `${id}: ${rows.join(' ')}`);
  }
});
