// Without a `logger` (the README's backend), the console says each problem once a minute;
// the orders whose lines that held back are named on the problem's next line, so an operator
// finds every checkout a hook failed for. The handler's clock (a mocked Date) is moved a
// minute on rather than waited out; the sandbox runs in this process and stands still with it.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Sandbox } from '../../../src/sandbox/index.ts';
import { createMemoryStore } from '../../../src/server/index.ts';
import { makeHandler, paidAtProvider, startSandbox, webhookRequest } from './fixtures.ts';

let sb: Sandbox;
before(async () => {
  sb = await startSandbox();
});
after(async () => {
  await sb.close();
});

test('two orders whose onPaid throws within a minute: the next line names the one held back', async (t) => {
  t.mock.timers.enable({ apis: ['Date'], now: Date.now() });
  const errors = t.mock.method(console, 'error', () => {});
  const h = makeHandler(sb, {
    store: createMemoryStore(),
    logger: undefined,
    rateLimit: false,
    hooks: {
      onPaid() {
        throw new Error('the warehouse is down');
      },
    },
  });
  const lines = () => errors.mock.calls.map((call) => String(call.arguments[0]));
  const { id: first } = await paidAtProvider(sb, h);
  const { id: second } = await paidAtProvider(sb, h);
  assert.equal((await h.handle(webhookRequest(first))).status, 500);
  assert.equal((await h.handle(webhookRequest(second))).status, 500);
  // Redelivered within the minute: said once, whichever order.
  assert.equal((await h.handle(webhookRequest(second))).status, 500);
  const threw = () => lines().filter((line) => line.includes('onPaid threw'));
  assert.equal(threw().length, 1, lines().join('\n'));
  assert.ok(threw()[0]!.includes(first), threw()[0]);
  t.mock.timers.tick(60_000);
  assert.equal((await h.handle(webhookRequest(first))).status, 500);
  assert.equal(threw().length, 2, lines().join('\n'));
  assert.match(
    threw()[1]!,
    new RegExp(
      `^payment-widget: onPaid threw; it will run again on the next report of this checkout\\. Cause: the warehouse is down \\(${first}\\); and 1 more since the last such line: ${second}$`,
    ),
  );
  // Said, the held-back order is not named again until its own problem recurs.
  t.mock.timers.tick(60_000);
  assert.equal((await h.handle(webhookRequest(first))).status, 500);
  assert.ok(!threw()[2]!.includes(second), threw()[2]);
});
