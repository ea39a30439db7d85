// The handler as an app that starts OpenTelemetry sees it: the SDK registered as the global
// providers, no `telemetry` option, spans batched to an OTLP/HTTP collector. The collector is
// a node:http server on loopback that decodes what arrives (OTLP's JSON encoding); the spans it
// receives are the ones the SDK recorded, tree and attributes alike. A handler made with
// `telemetry: false` beside it records nothing.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { metrics, trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { BatchSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace';
import type { Sandbox } from '../../../src/sandbox/index.ts';
import { createProviderClient } from '../../../src/server/index.ts';
import { until } from '../../shared/until.ts';
import { type Harness, makeHandler, startSandbox } from '../server/fixtures.ts';
import { cardBody } from '../support/cards.ts';
import { attribute, startCollector } from './collector.ts';
import { challenged, created, isHookSpan, PAID_CARD, send, webhook } from './flows.ts';
import { inMemorySdk, parentOf, registerContextManager } from './sdk.ts';

const collector = await startCollector();

registerContextManager();
const sdk = inMemorySdk([
  new BatchSpanProcessor({
    exporter: new OTLPTraceExporter({ url: `${collector.url}/v1/traces` }),
  }),
]);
trace.setGlobalTracerProvider(sdk.tracerProvider);
metrics.setGlobalMeterProvider(sdk.meterProvider);

let sb: Sandbox;
let h: Harness;
let off: Harness;
before(async () => {
  sb = await startSandbox();
  h = makeHandler(sb);
  // Another shop on the same merchant account (its own store and return URL): each
  // reconcile() sweeps only its own handler's checkouts from the provider's list.
  off = makeHandler(sb, { telemetry: false, publicUrl: 'http://127.0.0.2:9/payments' });
});
after(async () => {
  await sdk.tracerProvider.shutdown();
  await sb.close();
  await collector.close();
});

test('with no option, the global providers get the spans and metrics; the first request made at once is recorded', async () => {
  const id = await created(h, 'first', { sku: 'tea' });
  const res = await send(h, 'pay', 'PUT', `/checkouts/${id}`, { body: cardBody(PAID_CARD) });
  assert.equal(res.status, 200);
  await sdk.ended(isHookSpan('onPaid', id));
  const names = sdk.spans().map((s) => s.name);
  assert.ok(names.includes('POST /payments/checkouts'), names.join(', '));
  assert.ok(names.includes('PUT /v0.1/checkouts/{id}'), names.join(', '));
  const points = await sdk.metrics();
  assert.ok(points.some((p) => p.name === 'payment_widget.checkouts.created' && p.value === 1));
});

test('telemetry: false records nothing, with an SDK registered', async () => {
  const spans = sdk.spans().length;
  const before = JSON.stringify(await sdk.metrics());
  const id = await created(off, 'off-create', { sku: 'tea' });
  const res = await send(off, 'off-pay', 'PUT', `/checkouts/${id}`, { body: cardBody(PAID_CARD) });
  assert.equal(res.status, 200);
  assert.equal(await off.handle.reconcile().then((r) => r.checked), 0);
  assert.equal(sdk.spans().length, spans);
  assert.equal(JSON.stringify(await sdk.metrics()), before);
  // Everything else as usual: the hook runs (behind the answer, with no span to wait for).
  await until('onPaid of the handler without telemetry', () => off.paid.length === 1);
});

test('the spans of a card, a 3DS, a webhook and a reconciliation arrive at an OTLP/HTTP collector as recorded', async () => {
  const card = await created(h, 'otlp-card', { sku: 'tea' });
  await send(h, 'otlp-card-pay', 'PUT', `/checkouts/${card}`, { body: cardBody(PAID_CARD) });
  await sdk.ended(isHookSpan('onPaid', card));
  const challenge = await created(h, 'otlp-3ds', { sku: 'tea', redirect: false });
  await challenged(h, 'otlp-3ds-pay', challenge);
  await send(h, 'otlp-3ds-return', 'GET', `/return?checkout_id=${challenge}`, { origin: null });
  await sdk.ended(isHookSpan('onPaid', challenge));
  const hooked = await created(h, 'otlp-webhook', { sku: 'tea' });
  const provider = createProviderClient({ baseUrl: sb.url, apiKey: sb.apiKey });
  await provider.checkouts.process(hooked, cardBody(PAID_CARD));
  assert.equal((await webhook(h, 'otlp-webhook-1', hooked)).status, 204);
  const abandoned = await created(h, 'otlp-abandoned', { sku: 'tea', redirect: false });
  await challenged(h, 'otlp-abandoned-pay', abandoned);
  assert.equal((await h.handle.reconcile()).ran, 1);

  await sdk.tracerProvider.forceFlush();
  const recorded = sdk.spans();
  assert.ok(recorded.length >= 25, `spans recorded: ${recorded.length}`);
  const key = (traceId: string, spanId: string, parent: string | undefined, name: string) =>
    `${traceId} ${spanId} ${parent ?? '-'} ${name}`;
  const sent = recorded.map((s: ReadableSpan) =>
    key(s.spanContext().traceId, s.spanContext().spanId, parentOf(s), s.name),
  );
  const arrived = collector.spans.map(({ item: span }) =>
    key(span.traceId, span.spanId, span.parentSpanId || undefined, span.name),
  );
  assert.deepEqual(arrived.sort(), sent.sort());
  assert.ok(
    collector.spans.every(
      ({ scope }) => scope.name === 'payment-widget' && scope.version === '0.1.0',
    ),
  );

  // Attributes survive the trip: the reconciliation's report, a client call's URL.
  const run = collector.spans.find(({ item }) => item.name === 'payment_widget.reconcile')?.item;
  assert.equal(attribute(run?.attributes, 'payment_widget.reconcile.ran'), 1);
  const url = collector.spans
    .filter(({ item }) => item.parentSpanId === run?.spanId && item.kind === 3)
    .map(({ item }) => String(attribute(item.attributes, 'url.full')));
  // The open set's read of the abandoned checkout, and the sweep's read of the list.
  assert.ok(url.includes(`${sb.url}/v0.1/checkouts/${abandoned}`), String(url));
  assert.ok(
    url.every((u) => u.startsWith(`${sb.url}/v0.1/checkouts`)),
    String(url),
  );
});
