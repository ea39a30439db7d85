/** What each group of the store contract's tests is given. */
import type { PaymentStore, SqlTransaction } from '../store/types.ts';

/** A test runner's `test` (or `it`): a name and an async body. */
export type ContractTest = (name: string, body: () => Promise<void>) => unknown;

export interface ContractContext {
  test: ContractTest;
  /** A store to test: each call may make a new one over the same backend, as an instance would. */
  store(): Promise<PaymentStore>;
  /** A name no other test of this run uses, starting with `prefix`. */
  fresh(prefix: string): string;
  /** A lease or lifetime short enough to wait out. */
  shortMs: number;
  transaction?: ((work: (tx: SqlTransaction) => Promise<void>) => Promise<void>) | undefined;
}
