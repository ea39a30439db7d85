// docs/server.md's graceful stop, as a merchant copies it: a shop on node:http whose onPaid
// runs behind the payment's answer is sent SIGTERM mid-hook. The server stops taking
// requests at once, and the process exits only once the hook has finished: the order is
// fulfilled, where closing the server and exiting cut it short.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { Sandbox } from '../../../src/sandbox/index.ts';
import { until } from '../../shared/until.ts';
import { cardBody } from '../support/cards.ts';
import { exited, killAtExit } from '../support/children.ts';
import { ORIGIN, startSandbox } from './fixtures.ts';

/** The ```ts block after docs/server.md's "A graceful stop". */
function docsBlock(): string {
  const docs = readFileSync(new URL('../../../docs/server.md', import.meta.url), 'utf8');
  const block = /- \*\*A graceful stop\*\*[\s\S]*?```ts\n([\s\S]*?)```/.exec(docs)?.[1];
  assert.ok(block, "docs/server.md: no code block under 'A graceful stop'");
  return block;
}

/** The shop: the docs' block, then a handler whose onPaid waits for the parent's 'finish'. */
function shopSource(): string {
  const server = fileURLToPath(new URL('../../../src/server/index.ts', import.meta.url));
  return `import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createPaymentHandler, toNodeListener } from ${JSON.stringify(server)};
${docsBlock()}
const settings = JSON.parse(process.env.PW_GRACEFUL ?? '{}');
const finish = new Promise<void>((resolve) => process.on('message', () => resolve()));
const payments = createPaymentHandler({
  provider: settings.provider,
  publicUrl: 'http://127.0.0.1:9/payments',
  allowedOrigins: [${JSON.stringify(ORIGIN)}],
  resultPages: { success: '/result', failure: '/result' },
  resolveCheckout: () => ({ amount: 10, currency: 'EUR' }),
  hooks: {
    async onPaid(checkout) {
      process.send?.({ started: checkout.id });
      await finish;
      console.log(\`fulfilled \${checkout.id}\`);
    },
    waitUntil,
  },
});
const server = createServer(toNodeListener(payments)).listen(0, '127.0.0.1', () => {
  process.send?.({ port: (server.address() as AddressInfo).port });
});
`;
}

let sb: Sandbox;
const dir = mkdtempSync(join(tmpdir(), 'pw-graceful-'));

before(async () => {
  sb = await startSandbox();
});

after(async () => {
  await sb?.close();
  rmSync(dir, { recursive: true, force: true });
});

function next(child: ChildProcess): Promise<Record<string, unknown>> {
  return once(child, 'message').then(([message]) => message as Record<string, unknown>);
}

test("docs/server.md's graceful stop: SIGTERM mid-onPaid stops the server at once and exits once the hook has finished", async () => {
  const file = join(dir, 'shop.ts');
  writeFileSync(file, shopSource());
  const settings = {
    provider: { baseUrl: sb.url, apiKey: sb.apiKey, merchantCode: sb.merchantCode },
  };
  const child = spawn(process.execPath, ['--import', 'tsx', file], {
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
    env: { ...process.env, PW_GRACEFUL: JSON.stringify(settings) },
  });
  killAtExit(child);
  let output = '';
  child.stdout?.on('data', (d) => {
    output += String(d);
  });
  const { port } = await next(child);
  const url = `http://127.0.0.1:${port}/payments/checkouts`;
  const headers = { origin: ORIGIN, 'content-type': 'application/json' };
  const created = await fetch(url, { method: 'POST', headers, body: '{"order":{}}' });
  const { id } = (await created.json()) as { id: string };
  const started = next(child);
  const paid = await fetch(`${url}/${id}`, {
    method: 'PUT',
    headers,
    body: JSON.stringify(cardBody('4200000000000091')),
  });
  assert.equal(((await paid.json()) as { status: string }).status, 'PAID');
  assert.deepEqual(await started, { started: id });
  child.kill('SIGTERM');
  // The server stops taking requests while the hook is still inside.
  await until('the server to refuse connections', () =>
    fetch(url).then(
      () => false,
      () => true,
    ),
  );
  assert.equal(child.exitCode, null, 'the process waits for the hook');
  child.send('finish');
  await exited(child);
  assert.equal(child.exitCode, 0);
  assert.match(output, new RegExp(`^fulfilled ${id}$`, 'm'));
});
