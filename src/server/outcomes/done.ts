/**
 * A hook's `done(tx)`: marks its outcome done inside the merchant's own transaction, so that
 * the mark commits with the order or not at all. With the claims in the same database as the
 * orders (the PostgreSQL store), at most one transaction that called `done` commits per
 * outcome, whatever the leases: a run whose lease ran out and was taken over finds the claim
 * another's, and `done` throws `LeaseLostError`, which rolls its transaction back; two runs
 * racing to mark it meet on the claim's row lock, and the second finds the first's mark.
 *
 * With a claim store that keeps its claims elsewhere (memory, Redis) `done` writes nothing
 * in `tx` and resolves: the claim is marked done when the hook returns, as for a hook that
 * never calls it, so the order and the mark can part (a lease that ran out, a store that
 * lost the mark) and the hook stays at least once.
 */
import type { ClaimStore, SqlTransaction } from '../store/types.ts';

/** Thrown by `done(tx)` when another run of the hook already marked the outcome, or holds it now. */
export class LeaseLostError extends Error {
  override name = 'LeaseLostError';
  /** The checkout whose outcome another run took. */
  readonly checkoutId: string;
  /** `onPaid` or `onFailed`. */
  readonly hook: string;

  constructor(hook: string, checkoutId: string) {
    super(
      `${hook} for checkout ${checkoutId}: its lease (hooks.leaseMs) ran out and another run took the outcome over; roll this transaction back`,
    );
    this.hook = hook;
    this.checkoutId = checkoutId;
  }
}

/** What a hook is given beside the checkout. */
export interface HookRun {
  /**
   * Marks this outcome done inside your transaction `tx` (a `pg` client between `BEGIN` and
   * `COMMIT`, a postgres.js transaction `sql`, or `{ executeSql(text, values) }`): call it
   * with your order's writes, before you commit. Rejects with `LeaseLostError` when another
   * run already marked the outcome or holds it now: let it roll your transaction back.
   * With a store whose claims are not in your database (memory, Redis), it writes nothing
   * in `tx` and resolves; the outcome is marked done when the hook returns.
   */
  done(tx: SqlTransaction): Promise<void>;
}

export interface DoneMark {
  run: HookRun;
  /** Whether the hook's `done` marked the claim in a transaction (whose end decides). */
  readonly marked: boolean;
}

export function doneMark(
  claims: ClaimStore,
  held: { hook: string; checkoutId: string; key: string; token: string },
): DoneMark {
  let marked = false;
  return {
    run: {
      async done(tx) {
        if (claims.completeIn === undefined) return;
        if (!(await claims.completeIn(tx, held.key, held.token))) {
          throw new LeaseLostError(held.hook, held.checkoutId);
        }
        marked = true;
      },
    },
    get marked() {
      return marked;
    },
  };
}
