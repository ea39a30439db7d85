// An operator can tell that webhooks are being lost: reconcile() running a hook for a checkout
// that ended long before says so at warn level, naming the checkout and the webhook URL the
// provider cannot reach, once a minute on the console (the README's backend: no logger); and
// so does a later reconcile() call for one it ran sooner, before its webhook was due, when no
// webhook for it came within 20 s of its end, on any instance. The sandbox delivers its
// webhooks to the handler itself; its `drop` fault loses them. The handler's clock is moved on
// (mocked Date) rather than waited out.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { afterEach, type TestContext, test } from 'node:test';
import { createSandbox, type Sandbox } from '../../../src/sandbox/index.ts';
import { createMemoryStore, createProviderClient } from '../../../src/server/index.ts';
import { problemEntry } from '../../../src/server/outcomes/problems.ts';
import { until } from '../../shared/until.ts';
import { authenticate, type ChallengePayload, cardBody } from '../support/cards.ts';
import { createCheckout, type Harness, makeHandler, PUBLIC_URL, request } from './fixtures.ts';

const WEBHOOK_URL = `${PUBLIC_URL}/webhook`;

let sb: Sandbox | undefined;
afterEach(async () => {
  await sb?.close();
  sb = undefined;
});

/** A sandbox whose webhooks reach a handler with no logger (the console's lines, collected). */
async function setUp(t: TestContext, drop: boolean) {
  // The handler's clock (and the sandbox's, in this process) stands still until ticked.
  t.mock.timers.enable({ apis: ['Date'], now: Date.now() });
  let h: Harness | undefined;
  const box = await createSandbox({
    port: 0,
    webhook: { attempts: 1, fetch: async (input, init) => h!.handle(new Request(input, init)) },
  });
  sb = box;
  const handler = makeHandler(box, { logger: undefined });
  h = handler;
  const lines: string[] = [];
  t.mock.method(console, 'warn', (line: string) => lines.push(line));
  if (drop) {
    const res = await fetch(`${box.url}/sandbox/webhook-faults`, {
      method: 'POST',
      headers: { authorization: `Bearer ${box.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ kind: 'drop', times: 10 }),
    });
    assert.equal(res.status, 201);
  }
  const provider = createProviderClient({ baseUrl: box.url, apiKey: box.apiKey });
  /** A checkout made by the handler, paid at the provider (no widget return follows). */
  const paid = async () => {
    const { id } = await createCheckout(handler);
    await provider.checkouts.process(id, cardBody('4200000000000091'));
    return id as string;
  };
  const warned = () => lines.filter((line) => line.includes('which no webhook had done'));
  return { h: handler, paid, warned };
}

test('every webhook dropped: reconcile() a minute on names a checkout and the webhook URL, once', async (t) => {
  const { h, paid, warned } = await setUp(t, true);
  const ids = [await paid(), await paid()];
  t.mock.timers.tick(60_000);
  const report = await h.handle.reconcile();
  assert.equal(report.ran, 2);
  assert.deepEqual(h.paid.map((c) => c.id).sort(), [...ids].sort());
  // Two orders a webhook never reported; the console says it once this minute.
  const said = warned();
  assert.equal(said.length, 1, `console: ${said.join('\n')}`);
  const [line] = said as [string];
  assert.ok(line.includes(WEBHOOK_URL), line);
  assert.ok(
    ids.some((id) => line.includes(id)),
    line,
  );
  assert.match(line, /reconcile\(\) ran onPaid 6\d s after the checkout ended/);
});

/**
 * A checkout paid through `h` (watched as due at once), its 3DS done with no browser coming
 * back: reconciled seconds after it ended, before a webhook could be missed.
 */
async function paidWith3ds(h: Harness): Promise<string> {
  const { id } = await createCheckout(h, { sku: 'tea', redirect: false });
  const put = await h.handle(
    request('PUT', `/checkouts/${id}`, { body: cardBody('4200000000000042') }),
  );
  assert.equal(put.status, 202);
  const { next_step } = (await put.json()) as { next_step: { payload: ChallengePayload } };
  await authenticate(next_step.payload);
  return id;
}

test('every webhook dropped, a checkout being paid right now: reconcile() runs it at once, and names it 20 s after it ended', async (t) => {
  const { h, warned } = await setUp(t, true);
  const id = await paidWith3ds(h);
  assert.deepEqual(h.paid, []);
  assert.equal((await h.handle.reconcile()).ran, 1);
  // Its webhook may merely be slower than reconcile(): nothing said yet.
  assert.deepEqual(warned(), []);
  t.mock.timers.tick(19_000);
  assert.equal((await h.handle.reconcile()).ran, 0);
  assert.deepEqual(warned(), []);
  // 20 s after it ended no webhook has come: the next call says so, once.
  t.mock.timers.tick(1_000);
  assert.equal((await h.handle.reconcile()).ran, 0);
  const said = warned();
  assert.equal(said.length, 1, `console: ${said.join('\n')}`);
  const [line] = said as [string];
  assert.ok(line.includes(id) && line.includes(WEBHOOK_URL), line);
  assert.match(
    line,
    /reconcile\(\) ran onPaid before its webhook was due, which no webhook had done 20 s after the checkout ended/,
  );
  t.mock.timers.tick(60_000);
  await h.handle.reconcile();
  assert.equal(warned().length, 1);
});

test('two instances, with a logger: a webhook later than reconcile() but within 20 s, on the other instance, is no warning; a lost one is', async (t) => {
  t.mock.timers.enable({ apis: ['Date'], now: Date.now() });
  /** Each delivery, held until the test hands it to an instance or drops it. */
  const held = new Map<string, (to: Harness | undefined) => Promise<void>>();
  sb = await createSandbox({
    port: 0,
    webhook: {
      attempts: 1,
      fetch: async (input, init) => {
        const delivery = new Request(input, init);
        const { id } = (await delivery.clone().json()) as { id: string };
        return new Promise<Response>((resolve) => {
          held.set(id, async (to) => {
            resolve(
              to === undefined ? new Response(null, { status: 502 }) : await to.handle(delivery),
            );
          });
        });
      },
    },
  });
  const store = createMemoryStore();
  const [one, other] = [makeHandler(sb, { store }), makeHandler(sb, { store })];
  const [late, lost] = [await paidWith3ds(one), await paidWith3ds(one)];
  await until('both webhooks sent', () => held.size === 2);
  assert.equal((await one.handle.reconcile()).ran, 2);
  t.mock.timers.tick(5_000);
  // Its webhook comes 5 s after it ended, to the other instance; the other's is lost.
  await held.get(late)!(other);
  await held.get(lost)!(undefined);
  assert.deepEqual(other.paid, []);
  t.mock.timers.tick(15_000);
  await one.handle.reconcile();
  const entries = [...one.logs, ...other.logs]
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((entry) => entry.problem === 'no-webhook');
  assert.deepEqual(entries, [
    {
      level: 'warn',
      message: problemEntry('onPaid', lost, {
        kind: 'no-webhook',
        ageMs: 20_000,
        webhookUrl: WEBHOOK_URL,
        ranFirst: true,
      }).message,
      problem: 'no-webhook',
      hook: 'onPaid',
      checkoutId: lost,
      ageMs: 20_000,
      webhookUrl: WEBHOOK_URL,
      ranFirst: true,
    },
  ]);
});

test('reconcile() an hour apart: a webhook that came is never called lost, whose record expired', async (t) => {
  t.mock.timers.enable({ apis: ['Date'], now: Date.now() });
  let h: Harness | undefined;
  /** The webhook, held until the test delivers it. */
  let deliver: (() => Promise<void>) | undefined;
  sb = await createSandbox({
    port: 0,
    webhook: {
      attempts: 1,
      fetch: (input, init) =>
        new Promise<Response>((resolve) => {
          deliver = async () => resolve(await h!.handle(new Request(input, init)));
        }),
    },
  });
  h = makeHandler(sb);
  const id = await paidWith3ds(h);
  await until('the webhook sent', () => deliver !== undefined);
  // reconcile() runs it first; its webhook comes 5 s after it ended.
  assert.equal((await h.handle.reconcile()).ran, 1);
  t.mock.timers.tick(5_000);
  await deliver!();
  // The next reconcile() an hour and a minute on: the webhook's record is gone by then.
  t.mock.timers.tick(61 * 60_000);
  await h.handle.reconcile();
  const said = h.logs.filter((line) => line.includes('no-webhook'));
  assert.deepEqual(said, [], `${id}: ${said.join('\n')}`);
});

test('the webhook comes: reconcile() a minute on runs nothing and warns of nothing', async (t) => {
  const { h, paid, warned } = await setUp(t, false);
  const id = await paid();
  await until(
    () => `the webhook to run onPaid (paid: ${h.paid.length})`,
    () => h.paid.length === 1,
  );
  assert.equal(h.paid[0]!.id, id);
  t.mock.timers.tick(60_000);
  assert.equal((await h.handle.reconcile()).ran, 0);
  assert.deepEqual(warned(), []);
});

test('with a logger: each such order is its own warn entry, with the webhook URL', async (t) => {
  t.mock.timers.enable({ apis: ['Date'], now: Date.now() });
  sb = await createSandbox({ port: 0, webhook: { attempts: 1 } });
  const h = makeHandler(sb);
  const provider = createProviderClient({ baseUrl: sb.url, apiKey: sb.apiKey });
  const ids: string[] = [];
  for (let i = 0; i < 2; i += 1) {
    const { id } = await createCheckout(h);
    await provider.checkouts.process(id, cardBody('4200000000000091'));
    ids.push(id);
  }
  t.mock.timers.tick(60_000);
  assert.equal((await h.handle.reconcile()).ran, 2);
  const entries = h.logs
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((entry) => entry.problem === 'no-webhook');
  assert.deepEqual(entries.map((e) => e.checkoutId).sort(), [...ids].sort());
  for (const entry of entries) {
    assert.equal(entry.level, 'warn');
    assert.equal(entry.webhookUrl, WEBHOOK_URL);
    assert.equal(entry.ageMs, 60_000);
  }
});

test('docs/server.md\'s "Watching it" names the warning by its problem and its words', () => {
  const docs = readFileSync(new URL('../../../docs/server.md', import.meta.url), 'utf8');
  const watching = /\n### Watching it\n([\s\S]*?)\n#/.exec(docs)?.[1] ?? '';
  assert.ok(watching.includes('`reconcile()`'), 'docs/server.md: no "Watching it" section');
  const entry = problemEntry('onPaid', 'co_1', {
    kind: 'no-webhook',
    ageMs: 60_000,
    webhookUrl: WEBHOOK_URL,
    ranFirst: false,
  });
  const flat = watching.replace(/\s+/g, ' ');
  assert.ok(flat.includes(`\`problem\`: \`${entry.problem}\``), watching);
  for (const field of Object.keys(entry).filter(
    (k) => k === 'webhookUrl' || k === 'ageMs' || k === 'ranFirst',
  )) {
    assert.ok(flat.includes(`\`${field}\``), `${field} in: ${watching}`);
  }
  assert.ok(flat.includes(`\`${entry.level}\` "which no webhook had done"`), watching);
  assert.ok(entry.message.includes('which no webhook had done'), entry.message);
});
