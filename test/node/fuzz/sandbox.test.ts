// 5,000 generated requests against the sandbox's provider API, browser pages and control
// routes (the handler's half of the 10,000 is in handler.test.ts): no 5xx, no dropped
// connection, every 4xx a provider error `{ error_code, message, param? }` naming the field.
// Fault injection is fuzzed apart, one request at a time, so an injected fault never hits
// the other requests. Replay a failure with FUZZ_SEED=<seed printed below>.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { createSandbox } from '../../../src/sandbox/index.ts';
import { scaled } from '../../shared/until.ts';
import { bodyCases, contentType } from './inputs.ts';
import { fuzz, fuzzSeed, keepFetchOnLoopback, summary } from './run.ts';
import { sandboxTarget } from './targets.ts';

const RUNS = 5_000;

test(`the sandbox answers ${RUNS} hostile requests with 2xx-4xx and named fields`, async () => {
  const seed = fuzzSeed(20_251_002);
  // Fuzzed checkouts carry return_urls: their webhooks must not leave the machine.
  const network = keepFetchOnLoopback();
  const target = await sandboxTarget();
  try {
    const stats = await fuzz(target, { runs: RUNS, seed, timeLimitMs: scaled(90_000) });
    console.log(summary('sandbox', seed, stats));
    // Every request sent: a run its time limit cut short passes nothing off as tested.
    assert.equal(stats.requests, RUNS, 'the run was cut short by its time limit');
    assert.ok((stats.byStatus[200] ?? 0) + (stats.byStatus[201] ?? 0) > RUNS / 10);
    assert.ok((stats.byStatus[400] ?? 0) > RUNS / 5);
    assert.ok(stats.overHttp > 0);
    assert.deepEqual(network.blocked, [], 'the sandbox fetched a non-loopback URL');
    for (const line of target.logs) {
      assert.ok(!line.includes('4200000000000091'), `a card number reached the log: ${line}`);
    }
  } finally {
    await target.close();
    network.restore();
  }
});

test('fault injection refuses malformed faults with a named param and never breaks itself', async () => {
  const seed = fuzzSeed(20_251_003);
  const sb = await createSandbox({ webhook: { attempts: 1 } });
  const template = {
    method: 'GET',
    path: '/nowhere',
    kind: 'error',
    status: 503,
    delayMs: 0,
    times: 1,
  };
  try {
    await fc.assert(
      fc.asyncProperty(bodyCases(template), contentType, async (body, type) => {
        const res = await sb.handle(
          new Request(`${sb.url}/sandbox/faults`, {
            method: 'POST',
            headers: {
              authorization: `Bearer ${sb.apiKey}`,
              ...(type === undefined ? {} : { 'content-type': type }),
            },
            body: body.text,
          }),
        );
        const answer = (await res.json()) as Record<string, unknown>;
        // Whatever was injected, the control surface itself keeps answering.
        const cleared = await sb.handle(
          new Request(`${sb.url}/sandbox/faults`, {
            method: 'DELETE',
            headers: { authorization: `Bearer ${sb.apiKey}` },
          }),
        );
        assert.equal(cleared.status, 204);
        assert.ok([201, 400, 413].includes(res.status), `${body.label}: ${res.status}`);
        if (res.status === 400) {
          assert.equal(typeof answer.message, 'string');
          assert.equal(typeof answer.param, 'string', `${body.label}: ${JSON.stringify(answer)}`);
          if (body.mutated !== undefined && body.put !== undefined) {
            assert.equal(answer.param, body.mutated, `${body.label}: ${JSON.stringify(answer)}`);
          }
        }
      }),
      { numRuns: 300, seed },
    );
  } finally {
    await sb.close();
  }
});
