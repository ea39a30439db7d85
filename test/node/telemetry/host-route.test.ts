// The Node SDK with the official HTTP instrumentation (getNodeAutoInstrumentations() turns it
// on), the handler mounted at /payments of a plain Node server, and the sandbox as provider.
// That instrumentation names the host's server span and labels its
// `http.server.request.duration` from the route a framework reports; the handler reports its
// pattern, so an operator can split the host's latency by the handler's routes.
import assert from 'node:assert/strict';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { SpanKind } from '@opentelemetry/api';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import * as metrics from '@opentelemetry/sdk-metrics';
import { NodeSDK } from '@opentelemetry/sdk-node';
import * as tracing from '@opentelemetry/sdk-trace';
import { createSandbox, type Sandbox } from '../../../src/sandbox/index.ts';
import { createPaymentHandler, toNodeListener } from '../../../src/server/index.ts';
import { ORIGIN } from '../server/fixtures.ts';

process.env.OTEL_LOGS_EXPORTER = 'none';
const spans = new tracing.InMemorySpanExporter();
const waiting = new Set<{
  matches: (span: tracing.ReadableSpan) => boolean;
  resolve: (span: tracing.ReadableSpan) => void;
}>();
/** Tells the waiting tests of each span as it ends. */
const ended: tracing.SpanProcessor = {
  onStart() {},
  onEnd(span) {
    for (const w of waiting) {
      if (!w.matches(span)) continue;
      waiting.delete(w);
      w.resolve(span);
    }
  },
  forceFlush: () => Promise.resolve(),
  shutdown: () => Promise.resolve(),
};
const metricExporter = new metrics.InMemoryMetricExporter(
  metrics.AggregationTemporality.CUMULATIVE,
);
const reader = new metrics.PeriodicExportingMetricReader({
  exporter: metricExporter,
  exportIntervalMillis: 3_600_000, // exports only when flushed
});
const sdk = new NodeSDK({
  autoDetectResources: false,
  spanProcessors: [new tracing.SimpleSpanProcessor({ exporter: spans }), ended],
  metricReaders: [reader],
  instrumentations: [new HttpInstrumentation()],
});
sdk.start();
// Required after the SDK started, as the instrumentation patches `http` when it is required.
const http = createRequire(import.meta.url)('node:http') as typeof import('node:http');

let sb: Sandbox;
let server: Server;
let base = '';
let listeners: Record<string, (req: IncomingMessage, res: ServerResponse) => void> = {};

before(async () => {
  sb = await createSandbox({ port: 0 });
  // The shop: its own page at /, a handler under each of /payments and /quiet.
  server = http.createServer((req, res) => {
    const mount = Object.keys(listeners).find((m) => req.url?.startsWith(`${m}/`));
    if (mount !== undefined) return listeners[mount]?.(req, res);
    res.end('shop');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const handler = (mount: string, telemetry?: false) =>
    toNodeListener(
      createPaymentHandler({
        provider: { baseUrl: sb.url, apiKey: sb.apiKey, merchantCode: sb.merchantCode },
        publicUrl: `${base}${mount}`,
        allowedOrigins: [ORIGIN],
        resultPages: { success: '/paid', failure: '/failed' },
        resolveCheckout: () => ({ amount: 10, currency: 'EUR' }),
        ...(telemetry === false ? { telemetry } : {}),
      }),
    );
  listeners = { '/payments': handler('/payments'), '/quiet': handler('/quiet', false) };
});
after(async () => {
  await new Promise((resolve) => server.close(resolve));
  await sb.close();
  await sdk.shutdown();
});

const isHostSpan = (path: string) => (s: tracing.ReadableSpan) =>
  s.kind === SpanKind.SERVER &&
  s.instrumentationScope.name === '@opentelemetry/instrumentation-http' &&
  s.attributes['url.path'] === path;

/** The host's server span of the request for `path`, once it ends (its answer finished). */
function hostSpan(path: string): Promise<tracing.ReadableSpan> {
  const found = spans.getFinishedSpans().find(isHostSpan(path));
  if (found !== undefined) return Promise.resolve(found);
  return new Promise((resolve) => waiting.add({ matches: isHostSpan(path), resolve }));
}

async function call(method: string, path: string, body?: object): Promise<Response> {
  return fetch(`${base}${path}`, {
    method,
    headers: { origin: ORIGIN, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

/** The attributes of each of the host's `http.server.request.duration` series. */
async function hostDurations(): Promise<Record<string, unknown>[]> {
  await reader.forceFlush();
  return (metricExporter.getMetrics().at(-1)?.scopeMetrics ?? [])
    .filter((s) => s.scope.name === '@opentelemetry/instrumentation-http')
    .flatMap((s) => s.metrics)
    .filter((m) => m.descriptor.name === 'http.server.request.duration')
    .flatMap((m) => m.dataPoints.map((p) => p.attributes));
}

test("the host's span and duration of a request to the handler carry its route, mount path included", async () => {
  const created = await call('POST', '/payments/checkouts', { order: {} });
  assert.equal(created.status, 201);
  const { id } = (await created.json()) as { id: string };
  const read = await call('GET', `/payments/checkouts/${id}`);
  assert.equal(read.status, 200);
  await read.arrayBuffer();

  const post = await hostSpan('/payments/checkouts');
  const get = await hostSpan(`/payments/checkouts/${id}`);
  assert.deepEqual(
    [post.name, post.attributes['http.route']],
    ['POST /payments/checkouts', '/payments/checkouts'],
  );
  assert.deepEqual(
    [get.name, get.attributes['http.route']],
    ['GET /payments/checkouts/:id', '/payments/checkouts/:id'],
  );
  const routes = (await hostDurations()).map(
    (a) => `${a['http.request.method']} ${a['http.route']}`,
  );
  assert.ok(routes.includes('POST /payments/checkouts'), routes.join(', '));
  assert.ok(routes.includes('GET /payments/checkouts/:id'), routes.join(', '));
  assert.ok(!routes.some((r) => r.includes(id)), 'never the path');
});

test("no route for what the handler did not route (a 404), the shop's own pages, or with telemetry: false", async () => {
  assert.equal((await call('GET', '/payments/nowhere')).status, 404);
  assert.equal(await (await call('GET', '/')).text(), 'shop');
  const quiet = await call('POST', '/quiet/checkouts', { order: {} });
  assert.equal(quiet.status, 201);
  await quiet.arrayBuffer();
  for (const path of ['/payments/nowhere', '/', '/quiet/checkouts']) {
    const span = await hostSpan(path);
    assert.equal(span.name, span.attributes['http.request.method'], path);
    assert.equal(span.attributes['http.route'], undefined, path);
  }
});
