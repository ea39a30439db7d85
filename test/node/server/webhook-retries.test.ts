// What the sandbox does with each webhook answer the handler gives but 204, as the README's
// errors table and docs/server.md say it: the handler's real answers (a hook that throws, a
// claim held by an instance that died, a store that cannot be reached) reach the sandbox
// through its `webhook.fetch`, and the schedule that follows is read from the deliveries.
// The sandbox clock is moved to each retry; only the lease's end is waited out in real time.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { afterEach, test } from 'node:test';
import { createSandbox, type Sandbox } from '../../../src/sandbox/index.ts';
import type {
  DeliveryAttempt as Attempt,
  DeliveryRecord as Delivery,
} from '../../../src/sandbox/state/records.ts';
import {
  createMemoryStore,
  createProviderClient,
  type PaymentStore,
} from '../../../src/server/index.ts';
import { scaled, until } from '../../shared/until.ts';
import { cardBody } from '../support/cards.ts';
import { createCheckout, type HandlerOverrides, type Harness, makeHandler } from './fixtures.ts';

const README = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
const SERVER_MD = readFileSync(new URL('../../../docs/server.md', import.meta.url), 'utf8');
/** A dead instance's lease: whole seconds, as `Retry-After` says them. */
const LEASE_MS = Math.ceil(scaled(1_000) / 1000) * 1000;

/** The README's errors table: the "what to do" cell of `code`'s row. */
function whatToDo(code: string): string {
  const row = README.split('\n').find((line) => line.startsWith(`| \`${code}\` |`));
  assert.ok(row, `the README's errors table has no ${code} row`);
  return row.split(' | ').at(-1)!.replace(/ \|$/, '');
}

let sb: Sandbox | undefined;
afterEach(async () => {
  await sb?.close();
  sb = undefined;
});

/**
 * A sandbox on its default webhook schedule whose deliveries go to a handler made with
 * `overrides`, and a checkout paid at the provider (its webhook on the way): its id.
 */
async function paidBehind(
  overrides: HandlerOverrides,
  before?: (id: string) => Promise<void>,
): Promise<{ h: Harness; id: string }> {
  let h: Harness | undefined;
  sb = await createSandbox({
    webhook: { fetch: async (input, init) => h!.handle(new Request(input, init)) },
  });
  h = makeHandler(sb, overrides);
  const { id } = await createCheckout(h);
  await before?.(id);
  const provider = createProviderClient({ baseUrl: sb.url, apiKey: sb.apiKey });
  await provider.checkouts.process(id, cardBody('4200000000000091'));
  return { h, id };
}

async function control(method: string, path: string, body?: unknown): Promise<unknown> {
  const res = await sb!.handle(
    new Request(`${sb!.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${sb!.apiKey}`, 'content-type': 'application/json' },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    }),
  );
  return res.json();
}

/** The only delivery, once it has `count` attempts. */
async function attempted(count: number): Promise<Delivery> {
  let delivery: Delivery | undefined;
  await until(
    () => `attempt ${count}: ${JSON.stringify(delivery)}`,
    async () => {
      [delivery] = (await control('GET', '/sandbox/webhook-deliveries')) as Delivery[];
      return (delivery?.attempts.length ?? 0) >= count;
    },
  );
  return delivery!;
}

/** Moves the sandbox clock to each retry until the delivery is no longer pending. */
async function retriedToTheEnd(): Promise<Delivery> {
  for (let n = 1; ; n += 1) {
    const delivery = await attempted(n);
    if (delivery.state !== 'pending') return delivery;
    const last = delivery.attempts[n - 1]!;
    await control('POST', '/sandbox/clock', {
      advanceMs: Math.max(0, Date.parse(last.nextAt!) - Date.parse(last.at)),
    });
  }
}

const seconds = (ms: number) => String(Math.round(ms / 100) / 10);
const waitAfter = (a: Attempt) => Date.parse(a.nextAt!) - Date.parse(a.at) - a.durationMs;
/** The sandbox's waits between the tries, added up (the answers' own time aside). */
const waited = (d: Delivery) => d.attempts.slice(0, -1).reduce((sum, a) => sum + waitAfter(a), 0);

test('a hook that throws (500 HOOK_FAILED): tried again after 0.5 s, doubling, as often as the docs say', async () => {
  await paidBehind({
    hooks: {
      onPaid: () => {
        throw new Error('the ERP is down');
      },
    },
  });
  const delivery = await retriedToTheEnd();
  assert.equal(delivery.state, 'failed');
  assert.ok(delivery.attempts.every((a) => a.status === 500 && a.retryAfter === undefined));
  const [first, second] = delivery.attempts.map(waitAfter) as [number, number];
  assert.ok(Math.abs(first - 500) <= 50 && Math.abs(second - 1_000) <= 50, `${first}, ${second}`);
  const said = `${delivery.attempts.length} tries over ${seconds(waited(delivery))} s`;
  assert.match(whatToDo('HOOK_FAILED'), new RegExp(`after 0\\.5 s, doubling; ${said}`));
  assert.ok(SERVER_MD.includes(`after 0.5 s,\n  doubling; ${said}`), said);
});

test('a store that cannot be reached (503 STORE_UNAVAILABLE): tried again as its Retry-After says, as often as the docs say', async () => {
  const down: PaymentStore = {
    claim: async () => {
      throw new Error('connect ECONNREFUSED 127.0.0.1:6379');
    },
    complete: async () => true,
    release: async () => true,
  };
  await paidBehind({ store: down });
  const delivery = await retriedToTheEnd();
  assert.equal(delivery.state, 'failed');
  const every = Number(delivery.attempts[0]!.retryAfter);
  for (const a of delivery.attempts.slice(0, -1)) {
    assert.equal(a.status, 503);
    assert.equal(a.retryAfter, String(every));
    assert.ok(Math.abs(waitAfter(a) - every * 1000) <= 50, `${waitAfter(a)} ms`);
  }
  const said = `every ${every} s; ${delivery.attempts.length} tries over ${seconds(waited(delivery))} s`;
  assert.ok(whatToDo('STORE_UNAVAILABLE').includes(said), said);
  assert.ok(
    SERVER_MD.includes(`\`STORE_UNAVAILABLE\`,\n  delivered again (the sandbox: ${said})`),
    said,
  );
});

test('a claim held by an instance that died (503 HOOK_RUNNING): tried again when its lease ends, as the docs say', async () => {
  const store = createMemoryStore();
  const { h, id } = await paidBehind({ store }, async (id) => {
    // The dead instance's claim, with a second of its lease left (more on a busy machine).
    assert.equal(
      await store.claim(`onPaid:${sb!.merchantCode}:${id}`, 'dead', LEASE_MS),
      'claimed',
    );
  });
  let delivery: Delivery | undefined;
  await until(
    () => `the delivery: ${JSON.stringify(delivery)}`,
    async () => {
      [delivery] = (await control('GET', '/sandbox/webhook-deliveries')) as Delivery[];
      return delivery?.state === 'delivered';
    },
  );
  const [told, taken] = delivery!.attempts as [Attempt, Attempt];
  assert.deepEqual(
    delivery!.attempts.map((a) => a.status),
    [503, 204],
  );
  const left = Number(told.retryAfter);
  assert.ok(left >= 1 && left <= LEASE_MS / 1000, `Retry-After ${told.retryAfter}`);
  assert.ok(Math.abs(waitAfter(told) - left * 1000) <= 50, `${waitAfter(told)} ms`);
  assert.ok(Date.parse(taken.at) >= Date.parse(told.nextAt!));
  assert.deepEqual(
    h.paid.map((c) => c.id),
    [id],
  );
  assert.match(whatToDo('HOOK_RUNNING'), /the sandbox: at the lease's end/);
  assert.match(SERVER_MD, /503 `HOOK_RUNNING` with\s+`Retry-After`, the seconds left of the lease/);
});
