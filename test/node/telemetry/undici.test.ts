// The Node SDK with the official undici instrumentation (getNodeAutoInstrumentations() turns
// it on) as many operators start it: the handler's provider calls go through undici, which that
// instrumentation traces too. Each call must stay one client span with one traceparent: a
// second value in the header ("a, b") is no valid traceparent, and the provider would start a
// trace of its own. Its own `http.client.request.duration` of each call it still records, beside
// the handler's: a sum over both scopes counts each call twice, unless its `ignoreRequestHook`
// leaves the provider to the handler, as docs/server.md configures it.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { SpanKind, trace } from '@opentelemetry/api';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';
import { NodeSDK } from '@opentelemetry/sdk-node';
import * as tracing from '@opentelemetry/sdk-trace';
import { createPaymentHandler, type PaymentHandlerOptions } from '../../../src/server/index.ts';
import { ORIGIN } from '../server/fixtures.ts';
import { checkoutAnswer, scriptedServers, sendJson } from '../server/helpers.ts';

process.env.OTEL_LOGS_EXPORTER = 'none';
const exporter = new tracing.InMemorySpanExporter();
// Each collection holds what was recorded since the last.
const metricExporter = new InMemoryMetricExporter(AggregationTemporality.DELTA);
const reader = new PeriodicExportingMetricReader({
  exporter: metricExporter,
  exportIntervalMillis: 3_600_000,
});
const undici = new UndiciInstrumentation();
const sdk = new NodeSDK({
  autoDetectResources: false, // no attribute to wait for: each span is exported as it ends
  spanProcessors: [new tracing.SimpleSpanProcessor({ exporter })],
  metricReaders: [reader],
  instrumentations: [undici],
});
sdk.start();
after(() => sdk.shutdown());
const server = scriptedServers();

function handlerFor(baseUrl: string, provider: Partial<PaymentHandlerOptions['provider']> = {}) {
  return createPaymentHandler({
    provider: { baseUrl, apiKey: 'sk_test_undici', merchantCode: 'MTEST', ...provider },
    publicUrl: `${ORIGIN}/payments`,
    allowedOrigins: [ORIGIN],
    resultPages: { success: '/paid', failure: '/failed' },
    resolveCheckout: () => ({ amount: 10, currency: 'EUR' }),
  });
}

test('with the undici instrumentation on, a provider call is one client span and sends one traceparent', async () => {
  const provider = await server((_req, res) => sendJson(res, 200, checkoutAnswer('PENDING')));
  const handle = handlerFor(provider.url);
  const res = await handle(new Request(`${ORIGIN}/payments/checkouts/co_1`));
  assert.equal(res.status, 200);
  const calls = exporter.getFinishedSpans().filter((s) => s.kind === SpanKind.CLIENT);
  assert.deepEqual(
    calls.map((s) => s.name),
    ['GET /v0.1/checkouts/{id}'],
  );
  const { traceId, spanId } = calls[0]!.spanContext();
  assert.equal(provider.seen[0]?.headers.traceparent, `00-${traceId}-${spanId}-01`);
});

test("a span the merchant's provider.fetch starts is not recorded either: the handler's client span is the call's", async () => {
  const provider = await server((_req, res) => sendJson(res, 200, checkoutAnswer('PENDING')));
  const tracer = trace.getTracer('merchant');
  const handle = handlerFor(provider.url, {
    fetch: (input, init) =>
      tracer.startActiveSpan('merchant fetch', (span) =>
        fetch(input, init).finally(() => span.end()),
      ),
  });
  exporter.reset();
  assert.equal((await handle(new Request(`${ORIGIN}/payments/checkouts/co_1`))).status, 200);
  assert.deepEqual(
    exporter
      .getFinishedSpans()
      .map((s) => s.name)
      .sort(),
    ['GET /payments/checkouts/:id', 'GET /v0.1/checkouts/{id}'],
  );
  assert.equal(provider.seen.length, 1);
});

/** The scopes that recorded `http.client.request.duration` since the last call. */
async function clientDurationScopes(): Promise<string[]> {
  metricExporter.reset();
  await reader.forceFlush();
  const scopes = new Set<string>();
  for (const { scopeMetrics } of metricExporter.getMetrics()) {
    for (const { scope, metrics } of scopeMetrics) {
      const recorded = metrics.some(
        (m) => m.descriptor.name === 'http.client.request.duration' && m.dataPoints.length > 0,
      );
      if (recorded) scopes.add(scope.name);
    }
  }
  return [...scopes].sort();
}

// Last: it changes the instrumentation's configuration.
test("the instrumentation measures the provider's calls a second time; told to ignore the provider's origin, the handler's are the only ones", async () => {
  const provider = await server((_req, res) => sendJson(res, 200, checkoutAnswer('PENDING')));
  const handle = handlerFor(provider.url);
  const read = () => handle(new Request(`${ORIGIN}/payments/checkouts/co_1`));
  await clientDurationScopes(); // what the tests before recorded
  assert.equal((await read()).status, 200);
  assert.deepEqual(await clientDurationScopes(), [
    '@opentelemetry/instrumentation-undici',
    'payment-widget',
  ]);

  // As docs/server.md configures it, with the handler's provider.baseUrl.
  const PROVIDER_BASE_URL = provider.url;
  undici.setConfig({
    ignoreRequestHook: (request) => request.origin === new URL(PROVIDER_BASE_URL).origin,
  });
  assert.equal((await read()).status, 200);
  assert.deepEqual(await clientDurationScopes(), ['payment-widget']);
  // The call still carries the handler's one traceparent.
  const [, second] = provider.seen;
  assert.match(String(second?.headers.traceparent), /^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
});
