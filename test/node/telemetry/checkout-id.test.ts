// One payment is several requests, each its own trace: creating the checkout, paying it
// (a 3DS challenge), the widget's polls, the shopper's return and the provider's webhook.
// Each request's server span names the checkout (`payment_widget.checkout.id`, as the hook's
// span does), so an operator finds every trace of a payment by its id. Requests that name
// none (payment methods, a malformed id) carry none, and no metric carries it (one series
// per checkout).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { SpanKind } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import { createSandbox, type Sandbox } from '../../../src/sandbox/index.ts';
import { type Harness, makeHandler } from '../server/fixtures.ts';
import { cardBody } from '../support/cards.ts';
import { challenged, created, isHookSpan, PAID_CARD, send, webhook } from './flows.ts';
import { inMemorySdk, registerContextManager, spanTree } from './sdk.ts';

registerContextManager();
const sdk = inMemorySdk();
const ID = 'payment_widget.checkout.id';

let sb: Sandbox;
let h: Harness;
let id: string;
let declined: string;

before(async () => {
  sb = await createSandbox({ port: 0, webhook: { attempts: 1 } });
  h = makeHandler(sb, {
    telemetry: { tracerProvider: sdk.tracerProvider, meterProvider: sdk.meterProvider },
  });
  id = await created(h, 'create', { sku: 'tea', redirect: false });
  await challenged(h, 'pay', id);
  assert.equal((await send(h, 'poll', 'GET', `/checkouts/${id}`)).status, 200);
  const back = await send(h, 'return', 'GET', `/return?checkout_id=${id}`, { origin: null });
  assert.equal(back.status, 303);
  await sdk.ended(isHookSpan('onPaid', id));
  assert.equal((await webhook(h, 'webhook', id)).status, 204);
  // A declined card's checkout, and the basket's next one made after it.
  declined = await created(h, 'declined-create', { sku: 'declined' });
  const pay = { body: cardBody(PAID_CARD) };
  assert.equal((await send(h, 'declined-pay', 'PUT', `/checkouts/${declined}`, pay)).status, 200);
  const retry = await send(h, 'retry', 'POST', `/checkouts/${declined}/retry`);
  assert.equal(retry.status, 201);
  assert.notEqual(((await retry.json()) as { id: string }).id, declined);
  assert.equal((await send(h, 'methods', 'GET', '/payment-methods')).status, 200);
  assert.equal((await send(h, 'malformed', 'GET', '/checkouts/a%20b')).status, 400);
});

after(async () => {
  await sb.close();
});

const { serverSpan } = spanTree(sdk);

test("every request of one payment is a server span naming the payment's checkout", () => {
  const requests = ['create', 'pay', 'poll', 'return', 'webhook'];
  const named = requests.map((requestId) => [requestId, serverSpan(requestId).attributes[ID]]);
  assert.deepEqual(
    named,
    requests.map((requestId) => [requestId, id]),
  );
  // Five traces, one id: what an operator searches by.
  const traces = new Set(requests.map((r) => serverSpan(r).spanContext().traceId));
  assert.equal(traces.size, requests.length);
  const found = sdk.spans().filter((s: ReadableSpan) => s.attributes[ID] === id);
  assert.deepEqual(
    new Set(found.filter((s) => s.kind === SpanKind.SERVER).map((s) => s.name)),
    new Set([
      'POST /payments/checkouts',
      'PUT /payments/checkouts/:id',
      'GET /payments/checkouts/:id',
      'GET /payments/return',
      'POST /payments/webhook',
    ]),
  );
});

test('a retry names the failed checkout it was asked about, not the one it made', () => {
  for (const requestId of ['declined-create', 'declined-pay', 'retry']) {
    assert.equal(serverSpan(requestId).attributes[ID], declined, requestId);
  }
});

test('a request naming no checkout, or one that is not an id, carries none; no metric does', async () => {
  assert.equal(serverSpan('methods').attributes[ID], undefined);
  assert.equal(serverSpan('malformed').attributes[ID], undefined);
  for (const point of await sdk.metrics()) assert.equal(point.attributes[ID], undefined);
});
