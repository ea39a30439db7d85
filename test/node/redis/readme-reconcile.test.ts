// The README's reconcile() timer (its backend's last lines, which docs/server.md's Redis
// sample repeats) on a shop that moved its claims to Redis, with redis-server killed: each
// call rejects, and what reaches the console is one line a call saying what failed, not a
// stack every minute.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { createClient } from 'redis';
import {
  createPaymentHandler,
  createRedisStore,
  type PaymentHandler,
} from '../../../src/server/index.ts';
import { startSandbox } from '../server/fixtures.ts';
import { startRedisServer } from '../support/redis-server.ts';

/** The page's `payments.reconcile().catch(...)`, made into the timer's function over `payments`. */
function reconcileOf(path: string): (payments: PaymentHandler) => () => Promise<unknown> {
  const text = readFileSync(new URL(`../../../${path}`, import.meta.url), 'utf8');
  const start = text.indexOf('payments.reconcile().catch(');
  assert.ok(start >= 0, `${path}: no reconcile() timer`);
  // To the parenthesis that closes the catch.
  let depth = 0;
  let end = text.indexOf('.catch(', start) + '.catch'.length;
  do {
    if (text[end] === '(') depth += 1;
    if (text[end] === ')') depth -= 1;
    end += 1;
  } while (depth > 0 && end < text.length);
  return new Function('payments', `return () => ${text.slice(start, end)};`) as never;
}

test("the README's and docs/server.md's reconcile() timer, Redis down: one line a call says what failed", async (t) => {
  const sb = await startSandbox();
  const redis = await startRedisServer();
  const client = createClient({ url: redis.url });
  client.on('error', () => {});
  await client.connect();
  t.after(async () => {
    client.destroy();
    await redis.stop();
    await sb.close();
  });
  const payments = createPaymentHandler({
    provider: { baseUrl: sb.url, apiKey: sb.apiKey, merchantCode: sb.merchantCode },
    publicUrl: 'https://shop.example/payments',
    allowedOrigins: ['https://shop.example'],
    resultPages: { success: '/result', failure: '/result' },
    resolveCheckout: () => ({ amount: 10, currency: 'EUR' }),
    store: createRedisStore(client),
    hooks: { onPaid() {} },
  });
  await redis.kill();
  const warned = t.mock.method(console, 'warn', () => {});
  for (const page of ['README.md', 'docs/README-snippets/backend.mjs', 'docs/server.md']) {
    const reconcile = reconcileOf(page)(payments);
    warned.mock.resetCalls();
    await reconcile();
    await reconcile();
    const said = warned.mock.calls.map((call) => call.arguments);
    assert.equal(said.length, 2, page);
    for (const args of said) {
      assert.equal(args.length, 1, `${page}: ${args.join(' ')}`);
      const [line] = args as [unknown];
      assert.equal(typeof line, 'string', `${page}: said ${String(line)}`);
      assert.match(line as string, /^payment-widget: reconcile\(\) failed: Redis [^\n]*$/, page);
    }
  }
});
