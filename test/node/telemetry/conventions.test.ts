// What an operator reads in a trace viewer where the handler's spans follow OpenTelemetry's
// conventions to the letter, or fall short of what on-call needs: a request of an unknown method
// named `HTTP` (not `_OTHER`), the attempts of a retried provider read told apart by
// `http.request.resend_count`, and a reconciliation that could not ask the provider marked failed
// (it resolves, with `errors` in its report; the spans of its reads were red, its own was not),
// and a payment's span that says how it went: paid and declined both answer 200 without error.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { createSandbox } from '../../../src/sandbox/index.ts';
import { createPaymentHandler, type PaymentHandlerOptions } from '../../../src/server/index.ts';
import { makeHandler, ORIGIN } from '../server/fixtures.ts';
import { checkoutAnswer, scriptedServers, sendJson } from '../server/helpers.ts';
import { cardBody } from '../support/cards.ts';
import { created, PAID_CARD, send } from './flows.ts';
import { inMemorySdk, parentOf, registerContextManager } from './sdk.ts';

registerContextManager();
const sdk = inMemorySdk();
const server = scriptedServers();

function handlerFor(baseUrl: string, provider: Partial<PaymentHandlerOptions['provider']> = {}) {
  return createPaymentHandler({
    provider: { baseUrl, apiKey: 'sk_test_conventions', merchantCode: 'MTEST', ...provider },
    publicUrl: `${ORIGIN}/payments`,
    allowedOrigins: [ORIGIN],
    resultPages: { success: '/paid', failure: '/failed' },
    resolveCheckout: () => ({ amount: 10, currency: 'EUR' }),
    telemetry: { tracerProvider: sdk.tracerProvider, meterProvider: sdk.meterProvider },
    logger: () => {}, // the wrong key's error entry: expected here
  });
}

const serverSpanOf = (requestId: string) =>
  sdk
    .spans()
    .find(
      (s) => s.kind === SpanKind.SERVER && s.attributes['payment_widget.request_id'] === requestId,
    );

test('a request of a method the conventions do not know is named HTTP, its method _OTHER and the original kept', async () => {
  const provider = await server((_req, res) => sendJson(res, 200, checkoutAnswer('PENDING')));
  const handle = handlerFor(provider.url);
  const res = await handle(
    new Request(`${ORIGIN}/payments/checkouts/co_1`, {
      method: 'PROPFIND',
      headers: { 'x-request-id': 'propfind' },
    }),
  );
  assert.equal(res.status, 405);
  const span = serverSpanOf('propfind');
  assert.equal(span?.name, 'HTTP');
  assert.equal(span?.attributes['http.request.method'], '_OTHER');
  assert.equal(span?.attributes['http.request.method_original'], 'PROPFIND');
  assert.equal(provider.seen.length, 0);
});

test("a retried read: each attempt's client span says how many were sent before it", async () => {
  // Two 503s, then the checkout: the transport's two retries.
  const provider = await server((_req, res) => {
    if (provider.seen.length <= 2) sendJson(res, 503, { error_code: 'UNAVAILABLE' });
    else sendJson(res, 200, checkoutAnswer('PENDING'));
  });
  const handle = handlerFor(provider.url);
  const res = await handle(
    new Request(`${ORIGIN}/payments/checkouts/co_1`, { headers: { 'x-request-id': 'retried' } }),
  );
  assert.equal(res.status, 200);
  assert.equal(provider.seen.length, 3);
  const request = serverSpanOf('retried');
  const calls = sdk
    .spans()
    .filter((s) => s.kind === SpanKind.CLIENT && parentOf(s) === request?.spanContext().spanId);
  assert.deepEqual(
    calls.map((s) => [
      s.name,
      s.attributes['http.response.status_code'],
      s.attributes['http.request.resend_count'],
    ]),
    [
      ['GET /v0.1/checkouts/{id}', 503, undefined],
      ['GET /v0.1/checkouts/{id}', 503, 1],
      ['GET /v0.1/checkouts/{id}', 200, 2],
    ],
  );
  // The attempt count is the span's: the duration metric keeps its few attributes.
  const points = await sdk.metrics();
  assert.ok(
    points
      .filter((p) => p.name === 'http.client.request.duration')
      .every((p) => p.attributes['http.request.resend_count'] === undefined),
  );
});

/** The one reconciliation span ended since `before` spans were recorded. */
function reconcileSpanAfter(before: number) {
  const found = sdk
    .spans()
    .slice(before)
    .filter((s) => s.name === 'payment_widget.reconcile');
  assert.equal(found.length, 1);
  return found[0]!;
}

test('a reconciliation that could not ask the provider (a wrong key) is a failed span; one that could is not', async () => {
  const provider = await server((req, res) => {
    if (req.headers.authorization === 'Bearer sk_test_wrong') {
      sendJson(res, 401, { error_code: 'UNAUTHORIZED', message: 'invalid key' });
    } else sendJson(res, 200, []);
  });

  const before = sdk.spans().length;
  const report = await handlerFor(provider.url, { apiKey: 'sk_test_wrong' }).reconcile();
  assert.equal(report.errors, 1);
  const failed = reconcileSpanAfter(before);
  assert.equal(failed.status.code, SpanStatusCode.ERROR);
  assert.equal(failed.attributes['error.type'], '_OTHER');
  assert.equal(failed.attributes['payment_widget.reconcile.errors'], 1);
  // Why is on the read's own span, its child.
  const [list] = sdk.spans().filter((s) => parentOf(s) === failed.spanContext().spanId);
  assert.equal(list?.attributes['error.type'], '401');

  const next = sdk.spans().length;
  const fine = await handlerFor(provider.url).reconcile();
  assert.equal(fine.errors, 0);
  const ok = reconcileSpanAfter(next);
  assert.equal(ok.status.code, SpanStatusCode.UNSET);
  assert.equal(ok.attributes['error.type'], undefined);
});

test("a payment's server span carries its outcome: a decline is told from a payment, and neither is an error", async () => {
  const sb = await createSandbox({ port: 0, webhook: { attempts: 1 } });
  after(() => sb.close());
  const h = makeHandler(sb, {
    telemetry: { tracerProvider: sdk.tracerProvider, meterProvider: sdk.meterProvider },
  });
  for (const sku of ['tea', 'declined']) {
    const id = await created(h, `${sku}-create`, { sku });
    const res = await send(h, `${sku}-pay`, 'PUT', `/checkouts/${id}`, {
      body: cardBody(PAID_CARD),
    });
    assert.equal(res.status, 200);
  }
  const outcomeOf = (requestId: string) => {
    const span = serverSpanOf(requestId);
    return [span?.attributes['payment_widget.outcome'], span?.status.code];
  };
  assert.deepEqual(outcomeOf('tea-pay'), ['paid', SpanStatusCode.UNSET]);
  assert.deepEqual(outcomeOf('declined-pay'), ['failed', SpanStatusCode.UNSET]);
  // No payment was attempted in creating one: no outcome.
  assert.equal(serverSpanOf('tea-create')?.attributes['payment_widget.outcome'], undefined);
});
