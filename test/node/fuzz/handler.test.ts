// 5,000 generated requests against the companion handler (the sandbox's half of the 10,000 is
// in sandbox.test.ts, so node's runner spreads them over two processes): no 5xx, no dropped
// connection, every 4xx a JSON error that names the field at fault. Replay a failure with
// FUZZ_SEED=<seed printed below>; `npm run fuzz` runs far more.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { VIOLATION_CAPS } from '../../../src/server/page/violations.ts';
import { scaled } from '../../shared/until.ts';
import { fuzz, fuzzSeed, summary } from './run.ts';
import { handlerTarget } from './targets.ts';

const RUNS = 5_000;

test(`the handler answers ${RUNS} hostile requests with 2xx-4xx and named fields`, async () => {
  const seed = fuzzSeed(20_251_001);
  const target = await handlerTarget();
  try {
    const stats = await fuzz(target, { runs: RUNS, seed, timeLimitMs: scaled(90_000) });
    console.log(summary('handler', seed, stats));
    // Every request sent: a run its time limit cut short passes nothing off as tested.
    assert.equal(stats.requests, RUNS, 'the run was cut short by its time limit');
    // Most requests must reach a route's real work, not only the gate in front of it.
    assert.ok((stats.byStatus[200] ?? 0) + (stats.byStatus[202] ?? 0) > RUNS / 20);
    assert.ok((stats.byStatus[400] ?? 0) > RUNS / 5);
    assert.ok(stats.overHttp > 0);
    // The API key is never echoed, whatever came in.
    assert.equal(
      target.logs.filter((line) => line.includes('sk_test_sandbox')).length,
      0,
      'a log line carries the API key',
    );
    // POST /reports took some of them, and nothing it passed on is over its caps.
    const violations = target.violations ?? [];
    assert.ok(violations.length > 0, 'no report reached onPageViolation');
    for (const v of violations) {
      for (const url of [v.documentUrl, v.blockedUrl, v.sourceFile ?? '']) {
        assert.ok(url.length <= VIOLATION_CAPS.url && !/[?#]/.test(url), url);
      }
      assert.ok(v.directive.length <= VIOLATION_CAPS.directive, v.directive);
      assert.ok((v.sample ?? '').length <= VIOLATION_CAPS.sample, v.sample);
      assert.ok((v.integrity ?? '').length <= VIOLATION_CAPS.integrity, v.integrity);
    }
  } finally {
    await target.close();
  }
});
