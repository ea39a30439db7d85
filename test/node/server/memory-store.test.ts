// The memory store passes the store contract every store keeps (payment-widget/server/testing).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createMemoryStore, type PaymentStore } from '../../../src/server/index.ts';
import { storeContract } from '../../../src/server/testing/index.ts';

const store = createMemoryStore();
storeContract(test, () => store, { name: 'memory' });

// A contract that cannot fail proves nothing: a store that loses one part's promise is caught.
test('the contract fails a store whose claims do not hold (two claims both win)', async () => {
  const failures: string[] = [];
  const broken = createMemoryStore();
  const sloppy = { ...broken, claim: async () => 'claimed' as const };
  const registered: [string, () => Promise<void>][] = [];
  storeContract(
    (name, body) => registered.push([name, body]),
    () => sloppy,
    { parts: [] },
  );
  for (const [name, body] of registered) {
    await body().catch((error: Error) => failures.push(`${name}: ${error.message}`));
  }
  if (!failures.some((f) => f.startsWith('one of many concurrent claims wins'))) {
    throw new Error(`the contract let it pass: ${failures.join('\n')}`);
  }
});

/** The names of the contract's tests that fail for `store` (its claims alone). */
async function contractFailures(store: PaymentStore): Promise<string[]> {
  const registered: [string, () => Promise<void>][] = [];
  storeContract(
    (name, body) => registered.push([name, body]),
    () => store,
    { parts: [], shortMs: 100 },
  );
  const failures: string[] = [];
  for (const [name, body] of registered) await body().catch(() => failures.push(name));
  return failures;
}

// The rule before: a release refused once the lease ran out, so a hook that threw or rolled
// back after its lease left its claim behind, and the next report logged a takeover.
test('the contract fails a store whose release refuses its own claim once the lease ran out', async () => {
  const current = createMemoryStore();
  const old: PaymentStore = {
    ...current,
    async release(key, token) {
      return (await current.leaseLeft?.(key)) !== undefined && current.release(key, token);
    },
  };
  assert.deepEqual(await contractFailures(old), [
    'a holder whose lease ran out while nobody took it over still frees it: the next claim is no takeover',
  ]);
  assert.deepEqual(await contractFailures(createMemoryStore()), []);
});

test('a holder whose lease ran out with nobody taking it over frees it: the next claim is no takeover', async (t) => {
  t.mock.timers.enable({ apis: ['Date'], now: 1_000_000 });
  const own = createMemoryStore();
  assert.equal(await own.claim('onPaid:M:co', 'slow', 1_000), 'claimed');
  t.mock.timers.tick(2_000);
  // Its hook threw (or its transaction rolled back) after the lease: released, not crashed.
  assert.equal(await own.release('onPaid:M:co', 'slow'), true);
  assert.equal(await own.claim('onPaid:M:co', 'next', 1_000), 'claimed');
  assert.equal(await own.release('onPaid:M:co', 'slow'), false, "another's claim is never freed");
});
