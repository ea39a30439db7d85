// What the end of `npm test`'s log says of a failed node test: CI may keep only that end, so
// each failed test is named with the first line of its error, read from what node's runner
// really prints, in TAP (piped, as scripts/node-tests.mjs runs it) and spec (Node 24's choice
// for the steps run through tsx).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { COUNTS } from '../../../scripts/test-counts.mjs';

const dir = mkdtempSync(join(tmpdir(), 'test-counts-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const file = join(dir, 'failing.test.mjs');
writeFileSync(
  file,
  `import assert from 'node:assert/strict';
import { test } from 'node:test';
test('a checkout', async (t) => {
  await t.test('shows the paid order', () => assert.equal('Payment failed', 'Payment successful'));
  await t.test('keeps the card', () => {});
});
test('a flow that throws', () => { throw new Error('the frame was never found\\nsecond line'); });
test('a flow that passes', () => {});
`,
);

/**
 * What `node --test` prints for the file with `reporter`: as from a shell (without the
 * variable by which a test's own `node --test` would report to this runner instead).
 */
function run(reporter: 'tap' | 'spec'): string {
  const { NODE_TEST_CONTEXT: _, ...env } = process.env;
  const { stdout } = spawnSync(process.execPath, ['--test', `--test-reporter=${reporter}`, file], {
    encoding: 'utf8',
    env: { ...env, NO_COLOR: '1' },
  });
  return stdout;
}

for (const reporter of ['tap', 'spec'] as const) {
  test(`${reporter}: each failed test with what its error says first, not the parents that failed with it`, () => {
    const counts = COUNTS.node(run(reporter));
    assert.equal(counts.passed, 2);
    assert.equal(counts.failed, 3);
    const failures = counts.failures ?? [];
    assert.equal(failures.length, 2, failures.join('\n'));
    // An assertion's first line says only that two values differ: the values are on the next.
    assert.match(
      failures[0] ?? '',
      /^shows the paid order: .*'Payment failed'.*'Payment successful'/,
    );
    assert.match(
      failures[1] ?? '',
      /^a flow that throws: (Error: )?the frame was never found second line$/,
    );
  });
}
