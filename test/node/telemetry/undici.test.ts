// The Node SDK with the official undici instrumentation (getNodeAutoInstrumentations() turns
// it on) as many operators start it: the handler's provider calls go through undici, which that
// instrumentation traces too. Each call must stay one client span with one traceparent: a
// second value in the header ("a, b") is no valid traceparent, and the provider would start a
// trace of its own.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { SpanKind, trace } from '@opentelemetry/api';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { NodeSDK } from '@opentelemetry/sdk-node';
import * as tracing from '@opentelemetry/sdk-trace';
import { createPaymentHandler } from '../../../src/server/index.ts';
import { ORIGIN } from '../server/fixtures.ts';
import { checkoutAnswer, scriptedServers, sendJson } from '../server/helpers.ts';

process.env.OTEL_METRICS_EXPORTER = 'none';
process.env.OTEL_LOGS_EXPORTER = 'none';
const exporter = new tracing.InMemorySpanExporter();
const sdk = new NodeSDK({
  autoDetectResources: false, // no attribute to wait for: each span is exported as it ends
  spanProcessors: [new tracing.SimpleSpanProcessor({ exporter })],
  instrumentations: [new UndiciInstrumentation()],
});
sdk.start();
after(() => sdk.shutdown());
const server = scriptedServers();

test('with the undici instrumentation on, a provider call is one client span and sends one traceparent', async () => {
  const provider = await server((_req, res) => sendJson(res, 200, checkoutAnswer('PENDING')));
  const handle = createPaymentHandler({
    provider: { baseUrl: provider.url, apiKey: 'sk_test_undici', merchantCode: 'MTEST' },
    publicUrl: `${ORIGIN}/payments`,
    allowedOrigins: [ORIGIN],
    resultPages: { success: '/paid', failure: '/failed' },
    resolveCheckout: () => ({ amount: 10, currency: 'EUR' }),
  });
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
  const handle = createPaymentHandler({
    provider: {
      baseUrl: provider.url,
      apiKey: 'sk_test_undici',
      merchantCode: 'MTEST',
      fetch: (input, init) =>
        tracer.startActiveSpan('merchant fetch', (span) =>
          fetch(input, init).finally(() => span.end()),
        ),
    },
    publicUrl: `${ORIGIN}/payments`,
    allowedOrigins: [ORIGIN],
    resultPages: { success: '/paid', failure: '/failed' },
    resolveCheckout: () => ({ amount: 10, currency: 'EUR' }),
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
