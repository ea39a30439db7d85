import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { until } from '../../shared/until.ts';
import { checkoutBody } from './helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'sandbox-cli-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function run(args: string[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/sandbox/cli.ts', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d) => {
    out += String(d);
  });
  child.stderr.on('data', (d) => {
    out += String(d);
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    child,
    output: () => out,
    exited,
    async waitFor(re: RegExp, timeoutMs = 15_000) {
      await until(
        () => `${re}; output:\n${out}`,
        () => re.test(out),
        timeoutMs,
      );
      return re.exec(out)!;
    },
  };
}

test('prints base URL, key and merchant code, serves, and stops cleanly on SIGINT', async () => {
  const dataFile = join(dir, 'state.json');
  const cli = run(['--port', '0', '--data', dataFile, '--country', 'BR']);
  const [, url] = await cli.waitFor(/base URL:\s+(http:\/\/127\.0\.0\.1:\d+)/);
  assert.match(cli.output(), /API key:\s+sk_test_sandbox/);
  assert.match(cli.output(), /merchant code:\s+MSANDBOX1/);
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
