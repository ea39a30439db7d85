// docs/server.md's "Turning it on", as an operator copies it: the block starts the Node SDK
// before the handler, the shop answers one request, and a deploy's SIGTERM stops it. What the
// SDK held (the request's spans, its metrics) reaches the collector before the process exits;
// a process killed by the signal as it is by default would take them with it.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { Sandbox } from '../../../src/sandbox/index.ts';
import { ORIGIN, startSandbox } from '../server/fixtures.ts';
import { exited, killAtExit } from '../support/children.ts';
import { attribute, startCollector } from './collector.ts';

/** The ```ts block after docs/server.md's "Turning it on". */
function docsBlock(): string {
  const docs = readFileSync(new URL('../../../docs/server.md', import.meta.url), 'utf8');
  const block = /\*\*Turning it on\.\*\*[\s\S]*?```ts\n([\s\S]*?)```/.exec(docs)?.[1];
  assert.ok(block, "docs/server.md: no code block under 'Turning it on'");
  return block;
}

/** The shop: the docs' block (its packages from this repository), its handler's options filled in. */
function shopSource(): string {
  const resolved = (name: string) => JSON.stringify(import.meta.resolve(name));
  const server = JSON.stringify(
    fileURLToPath(new URL('../../../src/server/index.ts', import.meta.url)),
  );
  const block = docsBlock()
    .replace(`'@opentelemetry/sdk-node'`, resolved('@opentelemetry/sdk-node'))
    .replace('{ /* ... */ }', 'options');
  assert.ok(block.includes('createPaymentHandler(options)'), block);
  return `import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createPaymentHandler, toNodeListener } from ${server};
const options = {
  ...JSON.parse(process.env.PW_DOCS_SHOP ?? '{}'),
  publicUrl: 'http://127.0.0.1:9/payments',
  allowedOrigins: [${JSON.stringify(ORIGIN)}],
  resultPages: { success: '/result', failure: '/result' },
  resolveCheckout: () => ({ amount: 10, currency: 'EUR' }),
};
${block}
const server = createServer(toNodeListener(payments)).listen(0, '127.0.0.1', () => {
  console.log(\`port \${(server.address() as AddressInfo).port}\`);
});
`;
}

let sb: Sandbox;
const dir = mkdtempSync(join(tmpdir(), 'pw-otel-docs-'));

before(async () => {
  sb = await startSandbox();
});

after(async () => {
  await sb?.close();
  rmSync(dir, { recursive: true, force: true });
});

test("docs/server.md's Node SDK block: a SIGTERM right after a request still delivers its spans and metrics", async () => {
  const collector = await startCollector();
  try {
    const file = join(dir, 'shop.ts');
    writeFileSync(file, shopSource());
    const provider = { baseUrl: sb.url, apiKey: sb.apiKey, merchantCode: sb.merchantCode };
    const child = spawn(process.execPath, ['--import', 'tsx', file], {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: {
        ...process.env,
        PW_DOCS_SHOP: JSON.stringify({ provider }),
        OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      },
    });
    killAtExit(child);
    const port = await new Promise<string>((resolve, reject) => {
      let output = '';
      child.stdout?.on('data', (d) => {
        output += String(d);
        const found = /^port (\d+)$/m.exec(output);
        if (found?.[1]) resolve(found[1]);
      });
      child.once('exit', (code) => reject(new Error(`the shop exited with ${code}: ${output}`)));
    });
    const created = await fetch(`http://127.0.0.1:${port}/payments/checkouts`, {
      method: 'POST',
      headers: { origin: ORIGIN, 'content-type': 'application/json', 'x-request-id': 'last' },
      body: '{"order":{}}',
    });
    assert.equal(created.status, 201);
    child.kill('SIGTERM');
    await exited(child);
    assert.equal(child.exitCode, 0, `exit ${child.exitCode ?? child.signalCode}`);
    const last = collector.spans.find(
      ({ item }) => attribute(item.attributes, 'payment_widget.request_id') === 'last',
    );
    assert.equal(last?.item.name, 'POST /payments/checkouts');
    const names = collector.metrics.map(({ item }) => item.name);
    assert.ok(names.includes('payment_widget.checkouts.created'), names.join(', '));
  } finally {
    await collector.close();
  }
});
