// docs/server.md's alerts name the metrics as Prometheus stores them. Through the Collector or
// Prometheus's OTLP receiver a duration's name gains `_seconds`; the Node SDK's own Prometheus
// exporter (OTEL_METRICS_EXPORTER=prometheus) adds no unit, so an alert copied as written
// watches a name that is never written, and never fires: the docs must say so.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { after, test } from 'node:test';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { createPaymentHandler } from '../../../src/server/index.ts';
import { ORIGIN } from '../server/fixtures.ts';
import { checkoutAnswer, scriptedServers, sendJson } from '../server/helpers.ts';
import { listenLoopback } from '../support/loopback.ts';

/** A loopback port free a moment ago, for the exporter's own server. */
async function freePort(): Promise<string> {
  const { url, close } = await listenLoopback(createServer());
  await close();
  return new URL(url).port;
}

const port = await freePort();
Object.assign(process.env, {
  OTEL_METRICS_EXPORTER: 'prometheus',
  OTEL_EXPORTER_PROMETHEUS_HOST: '127.0.0.1',
  OTEL_EXPORTER_PROMETHEUS_PORT: port,
  OTEL_TRACES_EXPORTER: 'none',
  OTEL_LOGS_EXPORTER: 'none',
});
const sdk = new NodeSDK({ autoDetectResources: false });
sdk.start();
after(() => sdk.shutdown());
const server = scriptedServers();

test("the SDK's Prometheus exporter writes durations without _seconds, and the alerts say so", async () => {
  const provider = await server((_req, res) => sendJson(res, 200, checkoutAnswer('PENDING')));
  const handle = createPaymentHandler({
    provider: { baseUrl: provider.url, apiKey: 'sk_test_prometheus', merchantCode: 'MTEST' },
    publicUrl: `${ORIGIN}/payments`,
    allowedOrigins: [ORIGIN],
    resultPages: { success: '/paid', failure: '/failed' },
    resolveCheckout: () => ({ amount: 10, currency: 'EUR' }),
  });
  assert.equal((await handle(new Request(`${ORIGIN}/payments/checkouts/co_1`))).status, 200);
  const scraped = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  assert.match(scraped, /^http_server_request_duration_count\{/m);
  assert.doesNotMatch(scraped, /_seconds/);

  const docs = readFileSync('docs/server.md', 'utf8');
  const alerts = /\*\*Alerts to start from\.\*\*([\s\S]*?)\n\n/.exec(docs)?.[1] ?? '';
  assert.match(alerts.replace(/\s+/g, ' '), /SDK's own Prometheus exporter writes no `_seconds`/);
});
