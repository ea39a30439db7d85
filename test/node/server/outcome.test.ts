import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Checkout } from '../../../src/schemas/index.ts';
import { createMemoryIdempotencyStore } from '../../../src/server/index.ts';
import { createOutcomeReporter } from '../../../src/server/outcome.ts';

const checkout = (status: Checkout['status'], id = 'co_1'): Checkout => ({ id, status });

test('the memory store lets one claim win until it is released or expires', async () => {
  const store = createMemoryIdempotencyStore(50);
  const wins = await Promise.all([store.claim('k'), store.claim('k'), store.claim('k')]);
  assert.deepEqual(wins, [true, false, false]);
  await store.release('k');
  assert.equal(await store.claim('k'), true);
  await new Promise((resolve) => setTimeout(resolve, 60));
  assert.equal(await store.claim('k'), true);
});

test('hooks follow the status: PAID -> onPaid, FAILED and EXPIRED -> onFailed, PENDING -> none', async () => {
  const calls: string[] = [];
  const report = createOutcomeReporter({
    merchantCode: 'M1',
    store: createMemoryIdempotencyStore(),
    onPaid: (c) => calls.push(`paid ${c.id}`),
    onFailed: (c) => calls.push(`failed ${c.id}`),
    onHookError: () => assert.fail('no hook throws here'),
  });
  assert.equal(await report(checkout('PENDING', 'a')), 'none');
  assert.equal(await report(checkout('PAID', 'b')), 'ran');
  assert.equal(await report(checkout('PAID', 'b')), 'already');
  assert.equal(await report(checkout('FAILED', 'c')), 'ran');
  assert.equal(await report(checkout('EXPIRED', 'd')), 'ran');
  assert.deepEqual(calls, ['paid b', 'failed c', 'failed d']);
});

test('a store that is down does not throw; the report says failed so the webhook asks again', async () => {
  const errors: unknown[] = [];
  let paid = 0;
  const report = createOutcomeReporter({
    merchantCode: 'M1',
    store: {
      claim: async () => {
        throw new Error('redis unreachable');
      },
      release: async () => {},
    },
    onPaid: () => {
      paid += 1;
    },
    onHookError: (_hook, _id, error) => errors.push(error),
  });
  assert.equal(await report(checkout('PAID')), 'failed');
  assert.equal(paid, 0);
  assert.equal(errors.length, 1);
});
