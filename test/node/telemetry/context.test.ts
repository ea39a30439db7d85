// Where a request's trace comes from and where it goes: the host framework's span as the
// parent, an incoming `traceparent` only linked, the `traceparent` the provider receives, and the
// pieces that keep the spans readable and safe (URL templates and redaction, the option's
// checks, the scope's name and version, a hook that outlives its lease).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { context, propagation, SpanKind, trace } from '@opentelemetry/api';
import { createPaymentHandler, type PaymentHandlerOptions } from '../../../src/server/index.ts';
import { scrubbedUrl, urlTemplate } from '../../../src/server/telemetry/client.ts';
import { METRIC, SCOPE_NAME, SCOPE_VERSION } from '../../../src/server/telemetry/names.ts';
import { parseTraceparent } from '../../../src/server/telemetry/propagation.ts';
import { ORIGIN } from '../server/fixtures.ts';
import { checkoutAnswer, scriptedServers, sendJson } from '../server/helpers.ts';
import { inMemorySdk, parentOf, registerContextManager } from './sdk.ts';

registerContextManager();
const sdk = inMemorySdk();
const server = scriptedServers();
const telemetry = { tracerProvider: sdk.tracerProvider, meterProvider: sdk.meterProvider };

/** A provider that answers every checkout read with `status`, and remembers what it was sent. */
async function providerAnswering(status: string) {
  return server((_req, res) => sendJson(res, 200, checkoutAnswer(status)));
}

function handlerFor(baseUrl: string, extra: Partial<PaymentHandlerOptions> = {}) {
  return createPaymentHandler({
    provider: { baseUrl, apiKey: 'sk_test_context', merchantCode: 'MTEST' },
    publicUrl: `${ORIGIN}/payments`,
    allowedOrigins: [ORIGIN],
    resultPages: { success: '/paid', failure: '/failed' },
    resolveCheckout: () => ({ amount: 10, currency: 'EUR' }),
    telemetry,
    ...extra,
  });
}

/** The handler, asking the provider once per call: a 5xx is answered, not retried. */
const handlerTryingOnce = (baseUrl: string) =>
  handlerFor(baseUrl, {
    provider: { baseUrl, apiKey: 'sk_test_context', merchantCode: 'MTEST', retries: 0 },
  });

const read = (requestId: string, headers: Record<string, string> = {}) =>
  new Request(`${ORIGIN}/payments/checkouts/co_1`, {
    headers: { 'x-request-id': requestId, ...headers },
  });

const serverSpanOf = (requestId: string) =>
  sdk
    .spans()
    .find(
      (s) => s.kind === SpanKind.SERVER && s.attributes['payment_widget.request_id'] === requestId,
    );

test("a request the host's framework traced already is a child of the host's span", async () => {
  const provider = await providerAnswering('PENDING');
  const handle = handlerFor(provider.url);
  const host = sdk.tracerProvider.getTracer('host-framework').startSpan('GET /shop/*');
  const res = await context.with(trace.setSpan(context.active(), host), () =>
    handle(read('hosted')),
  );
  host.end();
  assert.equal(res.status, 200);
  const span = serverSpanOf('hosted');
  assert.equal(span?.spanContext().traceId, host.spanContext().traceId);
  assert.equal(parentOf(span!), host.spanContext().spanId);
});

// A browser (or anyone) sends what `traceparent` it likes: followed, it would choose the trace
// id of the handler's spans, and its sampled flag whether they are recorded at all.
test('an incoming traceparent is linked, not followed: the request starts a trace of its own, sampled by the app; the provider gets that trace', async () => {
  const provider = await providerAnswering('PENDING');
  const handle = handlerFor(provider.url);
  const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
  const callerSpan = '00f067aa0ba902b7';
  for (const flags of ['01', '00']) {
    const requestId = `linked-${flags}`;
    await handle(read(requestId, { traceparent: `00-${traceId}-${callerSpan}-${flags}` }));
    const span = serverSpanOf(requestId);
    assert.ok(span, `flags ${flags}: the request is recorded`);
    assert.notEqual(span.spanContext().traceId, traceId, `flags ${flags}`);
    assert.equal(parentOf(span), undefined, `flags ${flags}: a root`);
    assert.deepEqual(
      span.links.map((l) => [l.context.traceId, l.context.spanId]),
      [[traceId, callerSpan]],
      `flags ${flags}: the caller's span, linked`,
    );
    const [call] = sdk.spans().filter((s) => parentOf(s) === span.spanContext().spanId);
    assert.equal(call?.kind, SpanKind.CLIENT);
    const sent = provider.seen.at(-1)?.headers.traceparent;
    assert.equal(sent, `00-${span.spanContext().traceId}-${call?.spanContext().spanId}-01`);
  }
});

test("a caller the host trusts, called in its context as docs/server.md shows, continues the caller's trace", async () => {
  const provider = await providerAnswering('PENDING');
  const payments = handlerFor(provider.url);
  const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
  const callerSpan = '00f067aa0ba902b7';
  const request = read('trusted', { traceparent: `00-${traceId}-${callerSpan}-01` });
  // The W3C propagator an SDK registers, reduced to its extract.
  propagation.setGlobalPropagator({
    extract: (ctx, carrier, getter) => {
      const caller = parseTraceparent(getter.get(carrier, 'traceparent') as string | undefined);
      return caller === undefined ? ctx : trace.setSpanContext(ctx, caller);
    },
    inject: () => {},
    fields: () => ['traceparent'],
  });
  try {
    await context.with(
      propagation.extract(context.active(), Object.fromEntries(request.headers)),
      () => payments(request),
    );
  } finally {
    propagation.disable();
  }
  const span = serverSpanOf('trusted');
  assert.equal(span?.spanContext().traceId, traceId);
  assert.equal(parentOf(span!), callerSpan);
  assert.deepEqual(span?.links, []);
});

test('every provider call carries a traceparent, a retried read one per attempt', async () => {
  let calls = 0;
  const provider = await server((_req, res) => {
    calls += 1;
    // The first read fails as a provider under load does; the transport tries again.
    if (calls === 1) sendJson(res, 503, { message: 'busy' });
    else sendJson(res, 200, checkoutAnswer('PENDING'));
  });
  const handle = handlerFor(provider.url, {
    provider: {
      baseUrl: provider.url,
      apiKey: 'sk_test_context',
      merchantCode: 'MTEST',
      retries: 1,
    },
  });
  assert.equal((await handle(read('retried'))).status, 200);
  const span = serverSpanOf('retried');
  const attempts = sdk.spans().filter((s) => parentOf(s) === span?.spanContext().spanId);
  assert.deepEqual(
    attempts.map((s) => s.attributes['http.response.status_code']),
    [503, 200],
  );
  assert.deepEqual(
    provider.seen.map((r) => r.headers.traceparent),
    attempts.map((s) => `00-${s.spanContext().traceId}-${s.spanContext().spanId}-01`),
  );
});

test("a provider's 5xx: the server span's error.type is the code the handler answered, not the provider's", async () => {
  const provider = await server((_req, res) =>
    sendJson(res, 500, { error_code: 'INTERNAL_ERROR', message: 'Internal error' }),
  );
  const handle = handlerTryingOnce(provider.url);
  const res = await handle(read('provider-5xx'));
  const { error } = (await res.json()) as { error: { code: string } };
  assert.deepEqual([res.status, error.code], [500, 'PROVIDER_ERROR']);
  assert.equal(serverSpanOf('provider-5xx')?.attributes['error.type'], 'PROVIDER_ERROR');
  const points = (await sdk.metrics()).filter(
    (p) => p.name === 'http.server.request.duration' && p.attributes['error.type'] !== undefined,
  );
  assert.deepEqual(
    points.map((p) => p.attributes['error.type']),
    ['PROVIDER_ERROR'],
  );
});

test("without a logger, the console's line names the request's trace and span", async (t) => {
  const provider = await server((_req, res) => sendJson(res, 503, { message: 'busy' }));
  const handle = handlerTryingOnce(provider.url);
  const errors = t.mock.method(console, 'error', () => {});
  assert.equal((await handle(read('console-line'))).status, 503);
  const span = serverSpanOf('console-line')!.spanContext();
  const [line] = errors.mock.calls.map((call) => String(call.arguments[0]));
  assert.match(line ?? '', /console-line/);
  assert.ok(line?.includes(`trace_id=${span.traceId} span_id=${span.spanId}`), line);
});

test('a hook that returns after its lease ran out is recorded as timed_out', async () => {
  const provider = await providerAnswering('PAID');
  const leaseMs = 20;
  const handle = handlerFor(provider.url, {
    hooks: {
      leaseMs,
      // A slow fulfilment: its own duration is the point, not a guess at another's.
      onPaid: () => new Promise((resolve) => setTimeout(resolve, leaseMs * 3)),
    },
  });
  await handle(read('slow-hook'));
  const hook = await sdk.ended((s) => s.name === 'payment_widget.hook onPaid');
  assert.equal(hook.attributes['payment_widget.hook.result'], 'timed_out');
  assert.equal(parentOf(hook), serverSpanOf('slow-hook')?.spanContext().spanId);
});

test('the tracer is named after the package and its version', async () => {
  const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as {
    name: string;
    version: string;
  };
  assert.deepEqual([SCOPE_NAME, SCOPE_VERSION], [manifest.name, manifest.version]);
  const [span] = sdk.spans();
  assert.deepEqual(
    { name: span?.instrumentationScope.name, version: span?.instrumentationScope.version },
    { name: manifest.name, version: manifest.version },
  );
});

test("every metric the handler records is in docs/server.md's table, and no other", () => {
  const docs = readFileSync('docs/server.md', 'utf8');
  const table = /\*\*Metrics\.\*\*\n\n([\s\S]*?)\n\n/.exec(docs)?.[1] ?? '';
  const documented = [...table.matchAll(/^\| `([\w.]+)` \|/gm)].map((m) => m[1]);
  assert.deepEqual(documented.sort(), Object.values(METRIC).sort());
});

test('the handler keeps its three declared parameters: Deno.serve passes nothing to a function declaring none', () => {
  assert.equal(handlerFor('http://127.0.0.1:9').length, 3);
  assert.equal(handlerFor('http://127.0.0.1:9', { telemetry: false }).length, 3);
});

describe('the telemetry option', () => {
  test('is checked when the handler is made', () => {
    const make = (value: unknown) => () =>
      handlerFor('http://127.0.0.1:9', { telemetry: value as PaymentHandlerOptions['telemetry'] });
    assert.throws(make({ tracerProvider: {} }), /telemetry\.tracerProvider must be/);
    assert.throws(make({ meterProvider: 'global' }), /telemetry\.meterProvider must be/);
    assert.throws(make('on'), /telemetry must be/);
    assert.throws(make({ tracer: sdk.tracerProvider }), /unknown option telemetry\.tracer/);
    assert.doesNotThrow(make(false));
    assert.doesNotThrow(make({}));
  });
});

describe('provider URLs on spans', () => {
  test('ids become the template’s placeholders; customers, saved cards and query values are redacted', () => {
    const origin = 'https://api.provider.example';
    const cases: [string, string, string][] = [
      ['/v0.1/checkouts', '/v0.1/checkouts', '/v0.1/checkouts'],
      ['/v0.1/checkouts/co_9', '/v0.1/checkouts/{id}', '/v0.1/checkouts/co_9'],
      [
        '/v0.1/merchants/MTEST/payment-methods?amount=10&currency=EUR',
        '/v0.1/merchants/{merchant_code}/payment-methods',
        '/v0.1/merchants/MTEST/payment-methods?amount=REDACTED&currency=REDACTED',
      ],
      [
        '/v0.1/customers/ada%40example.com/payment-instruments/tok_1',
        '/v0.1/customers/{customer_id}/payment-instruments/{token}',
        '/v0.1/customers/REDACTED/payment-instruments/REDACTED',
      ],
      [
        '/v0.1/checkouts?checkout_reference=order-7',
        '/v0.1/checkouts',
        '/v0.1/checkouts?checkout_reference=REDACTED',
      ],
    ];
    for (const [path, template, full] of cases) {
      assert.equal(urlTemplate(path), template, path);
      assert.equal(scrubbedUrl(origin, path), `${origin}${full}`, path);
    }
  });
});

describe('traceparent', () => {
  test('reads a valid header and refuses the rest', () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const spanId = '00f067aa0ba902b7';
    assert.deepEqual(parseTraceparent(`00-${traceId}-${spanId}-01`), {
      traceId,
      spanId,
      traceFlags: 1,
      isRemote: true,
    });
    // A later version may add fields; its flags' unknown bits are not ours to keep.
    assert.equal(parseTraceparent(`01-${traceId}-${spanId}-03-more`)?.traceFlags, 1);
    for (const bad of [
      undefined,
      '',
      `ff-${traceId}-${spanId}-01`,
      `00-${traceId}-${spanId}-01-more`,
      `00-${'0'.repeat(32)}-${spanId}-01`,
      `00-${traceId}-${'0'.repeat(16)}-01`,
      `00-${traceId.toUpperCase()}-${spanId}-01`,
      `00-${traceId}-${spanId}`,
    ]) {
      assert.equal(parseTraceparent(bad), undefined, String(bad));
    }
  });
});
