// The README's "Testing your webhook handler" example (docs/README-snippets/
// webhook-handler.test.mjs, which test/e2e/readme.spec.ts holds equal to the README's block)
// runs as a merchant would run it: its own node:test process, importing the built
// `payment-widget/sandbox`.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { test } from 'node:test';

test("the README's webhook handler example passes against the sandbox", async () => {
  const child = spawn(
    process.execPath,
    ['--test', '--test-reporter=tap', 'docs/README-snippets/webhook-handler.test.mjs'],
    // Without the outer runner's NODE_TEST_CONTEXT the child reports as a run of its own.
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NODE_TEST_CONTEXT: undefined } },
  );
  let output = '';
  child.stdout.on('data', (d) => {
    output += String(d);
  });
  child.stderr.on('data', (d) => {
    output += String(d);
  });
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  assert.equal(code, 0, output);
  assert.match(output, /^# pass 2$/m, output);
  assert.match(output, /^# fail 0$/m, output);
});
