// The memory store passes the store contract every store keeps (payment-widget/server/testing).
import { test } from 'node:test';
import { createMemoryStore } from '../../../src/server/index.ts';
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
