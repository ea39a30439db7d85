/**
 * `payment-widget/server/testing`: the store contract, the suite the package's own stores
 * pass (memory, Redis, PostgreSQL), for anyone writing another. It registers its tests with
 * the runner's `test` (or `it`) and imports no test library, so it runs under node:test,
 * Vitest, Jest or Mocha, in Node or a browser:
 *
 * ```ts
 * import { test } from 'node:test';
 * import { storeContract } from 'payment-widget/server/testing';
 * storeContract(test, () => createMyStore(client), { parts: ['records'] });
 * ```
 */
import { resolveStore } from '../store/parts.ts';
import type { PaymentStore, SqlTransaction } from '../store/types.ts';
import { StoreContractError } from './assert.ts';
import { claimTests } from './claims.ts';
import type { ContractContext, ContractTest } from './context.ts';
import { counterTests, recordTests, watchTests } from './parts.ts';

export { StoreContractError } from './assert.ts';
export type { ContractTest } from './context.ts';

/** The optional parts of a store (the claims are always tested). */
export type StorePartName = 'watch' | 'counters' | 'records';

export interface StoreContractOptions {
  /** Put before each test's name, e.g. the store's: `postgres (pg): ...`. */
  name?: string;
  /** The optional parts the store keeps, each tested. Default: all three. */
  parts?: readonly StorePartName[];
  /**
   * A lease and a lifetime the tests wait out (a claim's lease running out, a record
   * expiring, a counter's window ending). Default 300 ms; longer for a store whose clock is
   * coarser, or that expires keys a moment late.
   */
  shortMs?: number;
  /**
   * For a store that marks claims done inside the merchant's transaction (`completeIn`,
   * `holder`): runs `work` in a new transaction of the store's database, committing when it
   * resolves and rolling back when it throws (rethrown). Its tests run only when given.
   */
  transaction?: (work: (tx: SqlTransaction) => Promise<void>) => Promise<void>;
}

const ALL_PARTS: readonly StorePartName[] = ['watch', 'counters', 'records'];

/**
 * Registers the store contract's tests with `test`. `makeStore` is called at least once per
 * test (twice where a test plays two instances sharing the store), so it may return one
 * store every time or a new one over the same backend. Each test uses keys of its own, new
 * on every run, so a backend that other tests or earlier runs use is fine.
 */
export function storeContract(
  test: ContractTest,
  makeStore: () => PaymentStore | Promise<PaymentStore>,
  options: StoreContractOptions = {},
): void {
  const parts = options.parts ?? ALL_PARTS;
  for (const part of parts) {
    if (!ALL_PARTS.includes(part)) {
      throw new TypeError(
        `storeContract: unknown part ${part}; the parts are ${ALL_PARTS.join(', ')}`,
      );
    }
  }
  const shortMs = options.shortMs ?? 300;
  if (!Number.isFinite(shortMs) || shortMs <= 0) {
    throw new TypeError('storeContract: shortMs must be a positive number of milliseconds');
  }
  const label = options.name === undefined ? '' : `${options.name}: `;
  const run = Math.random().toString(36).slice(2, 10);
  let n = 0;
  const context: ContractContext = {
    test: (name, body) => test(label + name, body),
    store: async () => makeStore(),
    fresh(prefix) {
      n += 1;
      return `${prefix}${run}-${n}`;
    },
    shortMs,
    transaction: options.transaction,
  };

  context.test('each part is whole or absent, as the handler checks at start', async () => {
    const store = await context.store();
    let resolved: ReturnType<typeof resolveStore>;
    try {
      resolved = resolveStore(store);
    } catch (error) {
      throw new StoreContractError(error instanceof Error ? error.message : String(error));
    }
    for (const part of parts) {
      if (resolved?.[part] === undefined) {
        throw new StoreContractError(
          `the store was to keep ${part}, but has none of its functions`,
        );
      }
    }
  });
  claimTests(context);
  if (parts.includes('watch')) watchTests(context);
  if (parts.includes('counters')) counterTests(context);
  if (parts.includes('records')) recordTests(context);
}
