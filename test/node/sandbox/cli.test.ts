import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { runCli } from './cli-process.ts';
import { checkoutBody } from './helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'sandbox-cli-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const run = runCli;

test('prints base URL, key and merchant code, serves, and stops cleanly on SIGINT', async () => {
  const dataFile = join(dir, 'state.json');
  const cli = run(['--port', '0', '--data', dataFile, '--country', 'BR']);
  const [, url] = await cli.waitFor(/base URL:\s+(http:\/\/127\.0\.0\.1:\d+)/);
  assert.match(cli.output(), /API key:\s+sk_test_sandbox/);
  assert.match(cli.output(), /merchant code:\s+MSANDBOX1/);
  // The three lines the README's backend reads, ready to paste into a shell.
  const exports = cli
    .output()
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.startsWith('export '));
  assert.deepEqual(exports, [
    `export PROVIDER_BASE_URL=${url}`,
    'export PROVIDER_API_KEY=sk_test_sandbox',
    'export MERCHANT_CODE=MSANDBOX1',
  ]);
  const res = await fetch(`${url}/v0.1/checkouts`, {
    method: 'POST',
    headers: { authorization: 'Bearer sk_test_sandbox', 'content-type': 'application/json' },
    body: JSON.stringify(checkoutBody()),
  });
  assert.equal(res.status, 201);
  assert.equal(((await res.json()) as { merchant_country: string }).merchant_country, 'BR');
  cli.child.kill('SIGINT');
  assert.equal(await cli.exited, 0);
  // The data written on the way out holds the checkout.
  assert.equal(JSON.parse(readFileSync(dataFile, 'utf8')).checkouts.length, 1);
  await assert.rejects(fetch(`${url}/v0.1/checkouts`));
});

test('bad flags exit 2 with the usage', async () => {
  const cli = run(['--port', 'abc']);
  assert.equal(await cli.exited, 2);
  assert.match(cli.output(), /--port must be/);
  assert.match(cli.output(), /Usage: payment-sandbox/);
  const unknown = run(['--colour']);
  assert.equal(await unknown.exited, 2);
});
