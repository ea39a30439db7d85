/**
 * The store contract's claims: one claim of many wins, only its holder completes or releases
 * it (freed even after its lease ran out, while nobody took it over), a lease that ran out is
 * taken over, done is kept; and, for a store that marks claims done in the merchant's
 * transaction, that mark commits or rolls back with the transaction.
 */
import type { ClaimStore, SqlTransaction } from '../store/types.ts';
import { equal, eventually, ok, pause } from './assert.ts';
import type { ContractContext } from './context.ts';

/** A claim that holds: `taken-over` where the store tells a lease ran out. */
const won = (state: string) => state === 'claimed' || state === 'taken-over';

export function claimTests(c: ContractContext): void {
  const { test, fresh, store, shortMs } = c;
  const key = () => fresh('onPaid:M1:co_');
  /** Far longer than any test: a lease that must not run out while the test looks at it. */
  const LONG = 60_000;

  test('one of many concurrent claims wins; the others see it running', async () => {
    // Two store objects, as two instances sharing the backend would have.
    const [one, two] = [await store(), await store()];
    const k = key();
    const tokens = Array.from({ length: 20 }, (_, i) => `t${i}`);
    const states = await Promise.all(
      tokens.map((token, i) => (i % 2 === 0 ? one : two).claim(k, token, LONG)),
    );
    equal(states.filter((s) => s === 'claimed').length, 1, `claims answered ${states.join(' ')}`);
    ok(
      states.every((s) => s === 'claimed' || s === 'running'),
      `claims answered ${states.join(' ')}`,
    );
  });

  test('only the holder completes or releases; done is kept and never freed', async () => {
    const s = await store();
    const k = key();
    equal(await s.claim(k, 'holder', LONG), 'claimed', 'the first claim');
    equal(await s.complete(k, 'other'), false, 'complete under another token');
    equal(await s.release(k, 'other'), false, 'release under another token');
    equal(await s.claim(k, 'other', LONG), 'running', 'a claim while it is held');
    equal(await s.complete(k, 'holder'), true, 'complete by the holder');
    equal(await s.complete(k, 'holder'), true, 'a repeated complete by the holder');
    equal(await s.claim(k, 'late', LONG), 'done', 'a claim after done');
    equal(await s.release(k, 'holder'), false, 'release of a done claim');
    equal(await s.claim(k, 'late', LONG), 'done', 'a claim after the release was refused');
  });

  test('a released claim is free at once', async () => {
    const s = await store();
    const k = key();
    equal(await s.claim(k, 'holder', LONG), 'claimed', 'the first claim');
    equal(await s.release(k, 'holder'), true, 'release by the holder');
    equal(await s.release(k, 'holder'), false, 'a second release');
    equal(await s.claim(k, 'next', LONG), 'claimed', 'a claim after the release');
  });

  test('a lease that ran out is taken over; its old holder can neither complete nor free it', async () => {
    const s = await store();
    const k = key();
    // (That a claim inside the lease finds it running is the tests above, with long leases:
    // here a slow machine may take the whole short lease between two calls.)
    equal(await s.claim(k, 'dead', shortMs), 'claimed', 'the first claim');
    await pause(shortMs);
    await eventually('the lease to run out', shortMs * 4, async () => {
      const state = await s.claim(k, 'next', LONG);
      ok(state !== 'done', 'a lease that ran out must not read as done');
      return won(state);
    });
    equal(await s.complete(k, 'dead'), false, 'complete by the old holder');
    equal(await s.release(k, 'dead'), false, 'release by the old holder');
    equal(await s.claim(k, 'other', LONG), 'running', 'a claim while the new holder runs');
    equal(await s.complete(k, 'next'), true, 'complete by the new holder');
    equal(await s.claim(k, 'other', LONG), 'done', 'a claim after done');
  });

  test('a holder whose lease ran out while nobody took it over still records done', async () => {
    const s = await store();
    const k = key();
    equal(await s.claim(k, 'slow', shortMs), 'claimed', 'the first claim');
    await pause(shortMs * 2);
    equal(await s.complete(k, 'slow'), true, 'complete after the lease');
    equal(await s.release(k, 'slow'), false, 'release of that done mark');
    equal(await s.claim(k, 'next', LONG), 'done', 'a claim after done');
  });

  test('a holder whose lease ran out while nobody took it over still frees it: the next claim is no takeover', async () => {
    // Its hook threw, or its transaction rolled back, after the lease: the handler releases
    // the claim so that the next report runs the hook again as a retry. A claim left behind
    // would be taken over, which the handler logs as a crashed run that may have run twice.
    const s = await store();
    const k = key();
    equal(await s.claim(k, 'slow', shortMs), 'claimed', 'the first claim');
    await pause(shortMs * 2);
    equal(await s.release(k, 'slow'), true, 'release by the holder after its lease');
    equal(await s.claim(k, 'next', LONG), 'claimed', 'a claim after that release');
    equal(await s.release(k, 'slow'), false, 'release by the old holder of the new claim');
    equal(await s.complete(k, 'next'), true, 'complete by the new holder');
  });

  test('leaseLeft, if any: the time left of a claim', async () => {
    const s = await store();
    const k = key();
    if (!s.leaseLeft) return;
    equal(await s.leaseLeft(k), undefined, 'unclaimed');
    await s.claim(k, 'a', LONG);
    const left = await s.leaseLeft(k);
    ok(left! > LONG / 2 && left! <= LONG, `claimed: ${left}`);
    await s.release(k, 'a');
    equal(await s.leaseLeft(k), undefined, 'released');
  });

  test('claims are apart: one key held does not hold another', async () => {
    const s = await store();
    const [a, b] = [key(), key()];
    equal(await s.claim(a, 'x', LONG), 'claimed', 'the claim on a');
    equal(await s.claim(b, 'y', LONG), 'claimed', 'the claim on b');
    equal(await s.complete(a, 'x'), true, 'complete a');
    equal(await s.claim(b, 'z', LONG), 'running', 'b is still held');
  });

  if (c.transaction !== undefined) transactionalTests(c, c.transaction);
}

type Transaction = NonNullable<ContractContext['transaction']>;

/** A store that offers `completeIn`, with a way to open the merchant's transactions. */
function transactionalTests(c: ContractContext, transaction: Transaction): void {
  const { test, fresh, store } = c;
  const key = () => fresh('onPaid:M1:co_');
  const LONG = 60_000;
  const transactional = async () => {
    const s = await store();
    ok(
      typeof s.completeIn === 'function' && typeof s.holder === 'function',
      'options.transaction is given, but the store has no completeIn() and holder()',
    );
    return s as Required<ClaimStore>;
  };
  /** Runs `work` in a transaction that then rolls back. */
  const rolledBack = async (work: (tx: SqlTransaction) => Promise<void>) => {
    const rollback = new Error('roll back');
    try {
      await transaction(async (tx) => {
        await work(tx);
        throw rollback;
      });
    } catch (error) {
      if (error !== rollback) throw error;
    }
  };

  test('a done mark made in a transaction counts once the transaction commits', async () => {
    const s = await transactional();
    const k = key();
    equal(await s.claim(k, 'holder', LONG), 'claimed', 'the first claim');
    await transaction(async (tx) => {
      equal(await s.completeIn(tx, k, 'holder'), true, 'completeIn by the holder');
    });
    equal(await s.holder(k), { state: 'done', token: 'holder' }, 'the holder after commit');
    equal(await s.claim(k, 'late', LONG), 'done', 'a claim after the commit');
  });

  test('a done mark made in a transaction that rolled back leaves the claim held', async () => {
    const s = await transactional();
    const k = key();
    equal(await s.claim(k, 'holder', LONG), 'claimed', 'the first claim');
    await rolledBack(async (tx) => {
      equal(await s.completeIn(tx, k, 'holder'), true, 'completeIn by the holder');
    });
    equal(await s.holder(k), { state: 'running', token: 'holder' }, 'the holder after rollback');
    equal(await s.release(k, 'holder'), true, 'release after the rollback');
    equal(await s.holder(k), undefined, 'the holder of a free key');
  });

  test('a done mark in a transaction is refused once another run holds the claim', async () => {
    const s = await transactional();
    const k = key();
    equal(await s.claim(k, 'slow', c.shortMs), 'claimed', 'the first claim');
    await pause(c.shortMs * 2);
    const second = await s.claim(k, 'second', LONG);
    ok(won(second), `the takeover after the lease: ${second}`);
    await transaction(async (tx) => {
      equal(await s.completeIn(tx, k, 'slow'), false, 'completeIn by the old holder');
    });
    equal(await s.holder(k), { state: 'running', token: 'second' }, 'the holder');
  });

  test('of two runs marking done in their transactions at once, one commits', async () => {
    const s = await transactional();
    const k = key();
    equal(await s.claim(k, 'first', c.shortMs), 'claimed', 'the first claim');
    await pause(c.shortMs * 2);
    const second = await s.claim(k, 'second', c.shortMs);
    ok(won(second), `the takeover after the lease: ${second}`);
    await pause(c.shortMs * 2);
    // Both leases ran out: each run may mark done, but only one mark may stand.
    const results = await Promise.all(
      ['first', 'second'].map(async (token) => {
        let marked = false;
        await transaction(async (tx) => {
          marked = await s.completeIn(tx, k, token);
        });
        return marked;
      }),
    );
    equal(results.filter(Boolean).length, 1, `marks committed: ${results.join(' ')}`);
    const holder = await s.holder(k);
    equal(holder?.state, 'done', 'the state after both');
    equal(holder?.token, results[0] ? 'first' : 'second', 'the token that marked done');
  });
}
