// A Redis outage longer than the provider's webhook retries, on the README's backend with its
// claims in Redis: the webhooks came and were answered 503 (the store away), and reconcile()
// fulfils the order once Redis is back. The console says the store was away; it must not
// also send the operator to check a firewall, as if the provider could not reach the
// handler. The sandbox delivers to the handler itself (one attempt, as the provider's last);
// the handler's clock is moved on (mocked Date) rather than waited out.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createClient } from 'redis';
import { createSandbox } from '../../../src/sandbox/index.ts';
import { createProviderClient, createRedisStore } from '../../../src/server/index.ts';
import { until } from '../../shared/until.ts';
import { createCheckout, type Harness, makeHandler } from '../server/fixtures.ts';
import { cardBody } from '../support/cards.ts';
import { startRedisServer } from '../support/redis-server.ts';

test('webhooks answered 503 while Redis was away: reconcile() fulfils the order after it, and says no webhook was lost', async (t) => {
  const redis = await startRedisServer({ persistent: 'always' });
  const client = createClient({ url: redis.url });
  client.on('error', () => {});
  await client.connect();
  let h: Harness | undefined;
  const sb = await createSandbox({
    port: 0,
    webhook: { attempts: 1, fetch: async (input, init) => h!.handle(new Request(input, init)) },
  });
  t.after(async () => {
    client.destroy();
    await sb.close();
    await redis.stop();
  });
  // The handler's clock (and the sandbox's, in this process) stands still until ticked.
  t.mock.timers.enable({ apis: ['Date'], now: Date.now() });
  const warnings: string[] = [];
  const errors: string[] = [];
  t.mock.method(console, 'warn', (line: string) => warnings.push(line));
  t.mock.method(console, 'error', (line: string) => errors.push(line));
  h = makeHandler(sb, { store: createRedisStore(client), logger: undefined });

  const { id } = await createCheckout(h);
  await redis.kill();
  const provider = createProviderClient({ baseUrl: sb.url, apiKey: sb.apiKey });
  await provider.checkouts.process(id, cardBody('4200000000000091'));
  await until('the webhook to be answered 503', () =>
    errors.some((line) => line.includes('onPaid did not run') && line.includes(id)),
  );

  await redis.restart();
  await until('the client to reconnect', () => client.isReady);
  t.mock.timers.tick(60_000);
  const report = await h.handle.reconcile();
  assert.equal(report.ran, 1);
  assert.deepEqual(
    h.paid.map((c) => c.id),
    [id],
  );
  // Before, this line came too: "reconcile() ran onPaid 60 s after the checkout ended, which
  // no webhook had done: ... check that the provider reaches .../webhook (the URL, a firewall,
  // a proxy)".
  const lost = warnings.filter((line) => line.includes('which no webhook had done'));
  assert.deepEqual(lost, []);
});
