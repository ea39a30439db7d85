// The example shop turns OpenTelemetry on the way an app does: started as `node
// server-example/main.ts` with OTEL_EXPORTER_OTLP_ENDPOINT set, it starts the Node SDK, and its
// handler's spans and metrics reach the collector there (here one on loopback, in OTLP's JSON
// encoding) when the shop stops; with OTEL_TRACES_EXPORTER=console they are printed instead.
// Without either, nothing starts (every other test of the shop runs so).
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { after, before, test } from 'node:test';
import { createSandbox, type Sandbox } from '../../../src/sandbox/index.ts';
import { until } from '../../shared/until.ts';
import { exited, killAtExit } from '../support/children.ts';
import { attribute, startCollector } from './collector.ts';

let sandbox: Sandbox;
before(async () => {
  sandbox = await createSandbox({ port: 0, webhook: { attempts: 1 } });
});
after(async () => {
  await sandbox.close();
});

interface Shop {
  child: ChildProcess;
  url: string;
  output: () => string;
}

/** `node server-example/main.ts` with `env` besides the provider's settings, once it listens. */
async function startShop(env: Record<string, string>): Promise<Shop> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server-example/main.ts'], {
    env: {
      ...process.env,
      PROVIDER_BASE_URL: sandbox.url,
      PROVIDER_API_KEY: sandbox.apiKey,
      MERCHANT_CODE: sandbox.merchantCode,
      PORT: '0',
      RECONCILE_INTERVAL_MS: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  killAtExit(child);
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
  });
  const url = await new Promise<string>((resolve, reject) => {
    const look = () => {
      const found = /server-example: (http:\/\/\S+)/.exec(output);
      if (found?.[1]) resolve(found[1]);
    };
    child.stdout?.on('data', look);
    child.once('exit', (code) => reject(new Error(`the shop exited with ${code}:\n${output}`)));
  });
  return { child, url, output: () => output };
}

/** The widget's first call: a checkout for the shop's poster. */
async function createCheckout(shop: Shop): Promise<void> {
  const res = await fetch(`${shop.url}payments/checkouts`, {
    method: 'POST',
    headers: { origin: new URL(shop.url).origin, 'content-type': 'application/json' },
    body: JSON.stringify({ order: { sku: 'poster' } }),
  });
  assert.equal(res.status, 201, await res.text());
}

test('OTEL_EXPORTER_OTLP_ENDPOINT: the shop starts the Node SDK, and its handler’s spans and metrics reach the collector', async () => {
  const collector = await startCollector();
  try {
    const shop = await startShop({
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    });
    assert.match(shop.output(), /OpenTelemetry: traces and metrics to http:\/\/127\.0\.0\.1/);
    await createCheckout(shop);
    // Stopping flushes what the SDK batched.
    shop.child.kill('SIGTERM');
    await exited(shop.child);
    const server = collector.spans.find(({ item }) => item.name === 'POST /payments/checkouts');
    assert.ok(server, collector.spans.map(({ item }) => item.name).join(', '));
    assert.equal(server.scope.name, 'payment-widget');
    assert.equal(attribute(server.resource, 'service.name'), 'payment-widget-example-shop');
    assert.ok(collector.spans.some(({ item }) => item.name === 'POST /v0.1/checkouts'));
    const names = collector.metrics.map(({ item }) => item.name);
    assert.ok(names.includes('payment_widget.checkouts.created'), names.join(', '));
    assert.ok(names.includes('http.server.request.duration'), names.join(', '));
  } finally {
    await collector.close();
  }
});

test('OTEL_TRACES_EXPORTER=console: the spans are printed', async () => {
  const shop = await startShop({ OTEL_TRACES_EXPORTER: 'console' });
  try {
    await createCheckout(shop);
    await until('the server span on stdout', () =>
      shop.output().includes("name: 'POST /payments/checkouts'"),
    );
  } finally {
    shop.child.kill('SIGTERM');
    await exited(shop.child);
  }
});

test('a collector that is down: the shop still stops cleanly on SIGTERM, saying what was lost', async () => {
  // Nothing listens on port 9; the SDK gives up on it within its export timeout.
  const shop = await startShop({
    OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9',
    OTEL_EXPORTER_OTLP_TIMEOUT: '500',
  });
  await createCheckout(shop);
  shop.child.kill('SIGTERM');
  await exited(shop.child);
  assert.equal(shop.child.exitCode, 0, shop.output());
  assert.match(shop.output(), /^server-example: OpenTelemetry: .*ECONNREFUSED/m);
});
