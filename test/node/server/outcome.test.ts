import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Checkout } from '../../../src/schemas/index.ts';
import { createMemoryStore, type PaymentStore } from '../../../src/server/index.ts';
import { type OutcomeProblem, problemEntry } from '../../../src/server/outcomes/problems.ts';
import { createOutcomeReporter, type OutcomeOptions } from '../../../src/server/outcomes/report.ts';
import { scaled, sleep, until } from '../../shared/until.ts';
import { heldHook } from '../support/held-hook.ts';

const checkout = (status: Checkout['status'], id = 'co_1'): Checkout => ({ id, status });
/**
 * A lease (or done TTL) the tests wait out, and how long they wait: the calls a test makes
 * while it must still hold take microseconds, but a loaded machine can stall a process for
 * tens of milliseconds (hundreds while the suites share two cores), so the lease is an idle
 * machine's 200 ms scaled to this one's load (test/shared/time-scale.mjs).
 */
const SHORT_MS = scaled(200);
const PAST_SHORT_MS = SHORT_MS + 50;

function reporter(overrides: Partial<OutcomeOptions> & { problems?: OutcomeProblem[] } = {}) {
  const problems = overrides.problems ?? [];
  return createOutcomeReporter({
    merchantCode: 'M1',
    claims: createMemoryStore(),
    leaseMs: 30_000,
    onProblem: (_hook, _id, problem) => problems.push(problem),
    ...overrides,
  });
}

test('the memory store lets one claim win until it is released or its lease runs out', async () => {
  const store = createMemoryStore();
  // A lease far longer than the race: a stalled machine must not let it run out between the
  // claims (the short one below is for the lease running out, waited past).
  const wins = await Promise.all([
    store.claim('k', 'a', 30_000),
    store.claim('k', 'b', 30_000),
    store.claim('k', 'c', 30_000),
  ]);
  assert.deepEqual(wins, ['claimed', 'running', 'running']);
  assert.equal(await store.release('k', 'b'), false, 'only the holder releases');
  assert.equal(await store.release('k', 'a'), true);
  assert.equal(await store.claim('k', 'd', SHORT_MS), 'claimed');
  await sleep(PAST_SHORT_MS);
  assert.equal(
    await store.claim('k', 'e', SHORT_MS),
    'taken-over',
    'a lease that ran out is free, and its taker is told it took over an earlier claim',
  );
});

test('the memory store keeps done for doneTtlMs and lets only the holder complete', async () => {
  const store = createMemoryStore({ doneTtlMs: SHORT_MS });
  assert.equal(await store.claim('k', 'a', 1_000), 'claimed');
  assert.equal(await store.complete('k', 'b'), false, 'another token cannot complete it');
  assert.equal(await store.complete('k', 'a'), true);
  assert.equal(await store.complete('k', 'a'), true, 'completing twice is harmless');
  assert.equal(await store.claim('k', 'c', 1_000), 'done');
  assert.equal(await store.release('k', 'a'), false, 'a done key is not released');
  await sleep(PAST_SHORT_MS);
  assert.equal(await store.claim('k', 'c', 1_000), 'claimed');
});

test('hooks follow the status: PAID -> onPaid, FAILED and EXPIRED -> onFailed, PENDING -> none', async () => {
  const calls: string[] = [];
  const problems: OutcomeProblem[] = [];
  const report = reporter({
    onPaid: (c) => calls.push(`paid ${c.id}`),
    onFailed: (c) => calls.push(`failed ${c.id}`),
    problems,
  });
  assert.equal(await report(checkout('PENDING', 'a')), 'none');
  // A status a newer provider may send is not final here either: no hook, keep asking.
  assert.equal(await report({ id: 'e', status: 'AUTHORIZED' as Checkout['status'] }), 'none');
  assert.equal(await report(checkout('PAID', 'b')), 'ran');
  assert.equal(await report(checkout('PAID', 'b')), 'already');
  assert.equal(await report(checkout('FAILED', 'c')), 'ran');
  assert.equal(await report(checkout('EXPIRED', 'd')), 'ran');
  assert.deepEqual(calls, ['paid b', 'failed c', 'failed d']);
  assert.deepEqual(problems, [], 'no hook throws here');
});

test('a store that is down does not throw; the report says unavailable so the webhook asks again', async () => {
  const problems: OutcomeProblem[] = [];
  let paid = 0;
  const report = reporter({
    claims: {
      claim: async () => {
        throw new Error('redis unreachable');
      },
      complete: async () => true,
      release: async () => true,
    },
    onPaid: () => {
      paid += 1;
    },
    problems,
  });
  assert.equal(await report(checkout('PAID')), 'unavailable');
  assert.equal(paid, 0);
  assert.equal(problems.length, 1);
  assert.equal(problems[0]?.kind, 'claim-failed');
});

test('a claim the store carried out but whose answer was lost is freed: the next report runs the hook, not after the lease', async () => {
  const store = createMemoryStore();
  let answered = 0;
  // The store is away for the first two releases, then back; the test waits on the one
  // that gets through.
  let refused = 0;
  let freed: () => void = () => {};
  const released = new Promise<void>((resolve) => {
    freed = resolve;
  });
  const problems: OutcomeProblem[] = [];
  let paid = 0;
  const report = reporter({
    claims: {
      async claim(key, token, leaseMs) {
        const state = await store.claim(key, token, leaseMs);
        answered += 1;
        // The first claim is written, then its answer never comes (the connection died).
        if (answered === 1) throw new Error('Socket closed unexpectedly');
        return state;
      },
      complete: (key, token) => store.complete(key, token),
      async release(key, token) {
        if (refused < 2) {
          refused += 1;
          throw new Error('Redis is not connected');
        }
        const was = await store.release(key, token);
        freed();
        return was;
      },
    },
    leaseMs: 60_000,
    completeRetryDelaysMs: [1, 1, 1],
    onPaid: () => {
      paid += 1;
    },
    problems,
  });
  assert.equal(await report(checkout('PAID')), 'unavailable');
  assert.equal(paid, 0, 'no hook on a claim the store did not answer');
  // Sent at once, so that a client that queues sends it behind the claim.
  assert.equal(refused, 1, 'the claim released as soon as it failed');
  // The tries' timers never keep a stopping process alive (unref): this wait does.
  const alive = setInterval(() => {}, 60_000);
  try {
    await released;
  } finally {
    clearInterval(alive);
  }
  assert.equal(refused, 2, 'tried again while the store was away');
  assert.equal(await report(checkout('PAID')), 'ran', 'the key is free long before its minute');
  assert.equal(await report(checkout('PAID')), 'already');
  assert.equal(paid, 1);
  assert.deepEqual(
    problems.map((p) => p.kind),
    ['claim-failed'],
  );
});

test('a report that finds the hook running does not run it, nor wait for it', async () => {
  const hook = heldHook();
  const report = reporter({ onPaid: hook.run });
  const first = report(checkout('PAID'));
  await hook.entered;
  assert.equal(await report(checkout('PAID')), 'running');
  hook.finish();
  assert.equal(await first, 'ran');
  assert.equal(await report(checkout('PAID')), 'already');
  assert.equal(hook.calls, 1);
});

test('a claim whose holder died is taken over once its lease runs out', async () => {
  const store = createMemoryStore();
  // What a killed instance leaves behind: a running claim nobody will complete.
  assert.equal(await store.claim('onPaid:M1:co_1', 'dead-instance', SHORT_MS), 'claimed');
  let calls = 0;
  const report = reporter({
    claims: store,
    onPaid: () => {
      calls += 1;
    },
  });
  assert.equal(await report(checkout('PAID')), 'running');
  assert.equal(calls, 0);
  await sleep(PAST_SHORT_MS);
  assert.equal(await report(checkout('PAID')), 'ran');
  assert.equal(await report(checkout('PAID')), 'already');
  assert.equal(calls, 1);
});

test('a hook that outlives its lease may run again alongside, and says so', async () => {
  const problems: OutcomeProblem[] = [];
  // The first run lasts until the test lets it end, however slow the machine.
  const hook = heldHook();
  const report = reporter({ leaseMs: 20, onPaid: hook.run, problems });
  const slow = report(checkout('PAID'));
  await hook.entered;
  await sleep(35); // past the 20 ms lease, taken when the hook was entered
  assert.equal(await report(checkout('PAID')), 'ran', 'the lease ran out: taken over');
  hook.finish();
  assert.equal(await slow, 'ran');
  assert.equal(hook.calls, 2);
  assert.deepEqual(
    problems.map((p) => p.kind),
    ['lease-ran-out', 'lease-taken-over', 'lease-lost'],
    'said when the lease ended, when the second run took it over, and when the first returned',
  );
  assert.equal(await report(checkout('PAID')), 'already');
});

test('a hook that throws is released; a release that rejects is reported, and the lease frees it', async () => {
  const problems: OutcomeProblem[] = [];
  const memory = createMemoryStore();
  let releaseWorks = false;
  const store: PaymentStore = {
    claim: (key, token, lease) => memory.claim(key, token, lease),
    complete: (key, token) => memory.complete(key, token),
    release: async (key, token) => {
      if (!releaseWorks) throw new Error('connection reset');
      return memory.release(key, token);
    },
  };
  let calls = 0;
  const report = reporter({
    claims: store,
    leaseMs: SHORT_MS,
    onPaid: () => {
      calls += 1;
      if (calls <= 2) throw new Error('database down');
    },
    problems,
  });
  assert.equal(await report(checkout('PAID')), 'failed');
  // One entry, naming both causes: "runs again on the next report" would not hold while the
  // claim stands (the next report finds it running until the lease ends).
  assert.deepEqual(
    problems.map((p) => p.kind),
    ['release-failed'],
  );
  const released = problems[0];
  assert.ok(released?.kind === 'release-failed');
  assert.match(String(released.error), /database down/);
  assert.match(String(released.releaseError), /reset/);
  const logged = problemEntry('onPaid', 'c1', released);
  assert.match(logged.message, /could not release its claim \(connection reset\)/);
  assert.equal(logged.error, 'database down');
  assert.equal(await report(checkout('PAID')), 'running', 'still held until the lease ends');
  await sleep(PAST_SHORT_MS);
  releaseWorks = true;
  assert.equal(await report(checkout('PAID')), 'failed');
  assert.equal(await report(checkout('PAID')), 'ran', 'released at once this time');
  assert.equal(calls, 3);
});

test('a hook that ran while the store could not record it is recorded in the background', async () => {
  const problems: OutcomeProblem[] = [];
  const memory = createMemoryStore();
  let completeFailures = 2;
  let recorded = false;
  const store: PaymentStore = {
    claim: (key, token, lease) => memory.claim(key, token, lease),
    complete: async (key, token) => {
      if (completeFailures > 0) {
        completeFailures -= 1;
        throw new Error('redis unreachable');
      }
      const completed = await memory.complete(key, token);
      recorded = true;
      return completed;
    },
    release: (key, token) => memory.release(key, token),
  };
  let calls = 0;
  const report = reporter({
    claims: store,
    completeRetryDelaysMs: [10, 10, 10],
    onPaid: () => {
      calls += 1;
    },
    problems,
  });
  assert.equal(
    await report(checkout('PAID')),
    'ran',
    'the hook ran: the webhook need not come back',
  );
  // A report meanwhile writes the kept mark first (the store still refuses it): no claim, no run.
  assert.equal(await report(checkout('PAID')), 'unavailable', 'nobody else runs it meanwhile');
  // Polled, not awaited as a promise: the reporter's retry timers are unref'd and would not
  // keep this process alive.
  await until('the background retry to record the hook', () => recorded);
  assert.equal(await report(checkout('PAID')), 'already');
  assert.equal(calls, 1);
  assert.deepEqual(
    problems.map((p) => p.kind),
    ['complete-failed'],
  );
});

test('recording a hook that ran gives up after its retries, and says so', async () => {
  const problems: OutcomeProblem[] = [];
  const report = reporter({
    claims: {
      claim: async () => 'claimed',
      complete: async () => {
        throw new Error('redis unreachable');
      },
      release: async () => true,
    },
    completeRetryDelaysMs: [5, 5],
    onPaid: () => {},
    problems,
  });
  assert.equal(await report(checkout('PAID')), 'ran');
  await until('recording the hook to be given up', () =>
    problems.some((p) => p.kind === 'complete-failed' && p.final),
  );
  assert.deepEqual(
    problems.map((p) =>
      p.kind === 'complete-failed' ? `complete-failed final=${p.final}` : p.kind,
    ),
    ['complete-failed final=false', 'complete-failed final=true'],
  );
});

test('with claims outside the merchant’s database, done(tx) writes nothing in tx and the claim is marked when the hook returns', async () => {
  const store = createMemoryStore();
  const statements: unknown[] = [];
  const tx = { executeSql: async (text: string) => statements.push(text) };
  let stateInside: string | undefined;
  const report = reporter({
    claims: store,
    async onPaid(_checkout, { done }) {
      await done(tx);
      // Not marked yet: the mark follows the hook's return, as for a hook that never calls done.
      stateInside = await store.claim('onPaid:M1:co_1', 'probe', 30_000);
    },
  });
  assert.equal(await report(checkout('PAID')), 'ran');
  assert.deepEqual(statements, []);
  assert.equal(stateInside, 'running');
  assert.equal(await store.claim('onPaid:M1:co_1', 'later', 30_000), 'done');
});

test('a report of an outcome whose done mark this instance still keeps writes that mark first, under the hook’s token, and runs nothing', async () => {
  const memory = createMemoryStore();
  let storeDown = true;
  const completedBy: string[] = [];
  const claims: PaymentStore = {
    claim: (key, token, lease) => memory.claim(key, token, lease),
    complete: async (key, token) => {
      if (storeDown) throw new Error('redis unreachable');
      completedBy.push(token);
      return memory.complete(key, token);
    },
    release: (key, token) => memory.release(key, token),
  };
  let calls = 0;
  // The background retries wait far longer than this test: the next report comes first.
  const report = reporter({
    claims,
    leaseMs: SHORT_MS,
    completeRetryDelaysMs: [60_000],
    onPaid: () => {
      calls += 1;
    },
  });
  assert.equal(await report(checkout('PAID')), 'ran');
  // The store is back after the hook's lease ran out: a claim now would be let in.
  await sleep(PAST_SHORT_MS);
  storeDown = false;
  assert.equal(await report(checkout('PAID')), 'already');
  assert.equal(completedBy.length, 1);
  assert.equal(await memory.claim('onPaid:M1:co_1', 'later', 30_000), 'done');
  assert.equal(calls, 1);
});
