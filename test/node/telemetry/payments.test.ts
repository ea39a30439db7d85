// What an operator's OpenTelemetry SDK receives from the handler over one run against a real
// sandbox: a card payment (paid, then paid again and refused by the card-testing limit), a
// declined card, a 3DS payment confirmed by the shopper's return, a webhook whose hook throws
// once, a 3DS payment no report reached that reconciliation finds, and a saved-cards lookup for
// a customer whose id is an email address. The spans form one tree per request, the metrics
// carry the contract's names and attributes, and no span, metric or log entry holds a card
// number, CVV, the API key or the customer's details.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, test } from 'node:test';
import { SpanKind } from '@opentelemetry/api';
import { createSandbox, type Sandbox } from '../../../src/sandbox/index.ts';
import type { PersonalDetails } from '../../../src/schemas/index.ts';
import { createProviderClient, type ReconcileReport } from '../../../src/server/index.ts';
import { makeHandler } from '../server/fixtures.ts';
import { cardBody } from '../support/cards.ts';
import {
  CHALLENGE_CARD,
  challenged,
  created,
  isHookSpan,
  PAID_CARD,
  send,
  webhook,
} from './flows.ts';
import { inMemorySdk, parentOf, points, registerContextManager, spanTree, total } from './sdk.ts';

registerContextManager();
const sdk = inMemorySdk();

const API_KEY = `sk_test_otel_${randomBytes(12).toString('hex')}`;
const CVV = '739';
const CUSTOMER = 'ada.lovelace@example.com';
const PERSONAL: PersonalDetails = {
  first_name: 'Augusta',
  last_name: 'Lovelace',
  email: CUSTOMER,
  phone: '+44 20 7946 0958',
  address: { line_1: '12 Analytical Row', city: 'Marylebone', postal_code: 'NW1 6XE' },
};

let sb: Sandbox;
let h: ReturnType<typeof makeHandler>;
/** Checkout ids by flow. */
const ids: Record<string, string> = {};
let reconciled: ReconcileReport;
const statuses: Record<string, number> = {};

/** A request of the run; its status is kept for the tests. */
async function call(
  requestId: string,
  method: string,
  path: string,
  options: Parameters<typeof send>[4] = {},
): Promise<Response> {
  const res = await send(h, requestId, method, path, options);
  statuses[requestId] = res.status;
  return res;
}

const thrownOnce = new Set<string>();
/** The merchant's own words: its log gets them, no span does (a message may hold anything). */
const HOOK_ERROR = 'the order database did not answer';

before(async () => {
  sb = await createSandbox({ port: 0, apiKey: API_KEY, webhook: { attempts: 1 } });
  const provider = createProviderClient({ baseUrl: sb.url, apiKey: API_KEY });
  h = makeHandler(sb, {
    telemetry: { tracerProvider: sdk.tracerProvider, meterProvider: sdk.meterProvider },
    rateLimit: { paymentsPerCheckout: { limit: 2 } },
    authorizeCustomer: () => true,
    hooks: {
      onPaid(checkout) {
        // The webhook's checkout: its first run fails, as a merchant's database might.
        if (checkout.id === ids.webhook && !thrownOnce.has(checkout.id)) {
          thrownOnce.add(checkout.id);
          throw new Error(HOOK_ERROR);
        }
        h.paid.push(checkout);
      },
    },
  });

  // A card payment with the shopper's details, then the same checkout paid again (the
  // provider refuses) and once more (over the card-testing limit: no provider call).
  ids.card = await created(h, 'card-create', { sku: 'tea' });
  const card = cardBody(PAID_CARD, { personal_details: PERSONAL });
  const paying = { body: { ...card, card: { ...card.card, cvv: CVV } } };
  assert.equal((await call('card-pay', 'PUT', `/checkouts/${ids.card}`, paying)).status, 200);
  await sdk.ended(isHookSpan('onPaid', ids.card));
  await call('card-again', 'PUT', `/checkouts/${ids.card}`, paying);
  assert.equal((await call('card-refused', 'PUT', `/checkouts/${ids.card}`, paying)).status, 429);

  // A declined card.
  ids.declined = await created(h, 'declined-create', { sku: 'declined' });
  const declined = await call('declined-pay', 'PUT', `/checkouts/${ids.declined}`, {
    body: cardBody(PAID_CARD),
  });
  assert.equal(declined.status, 200);
  await sdk.ended(isHookSpan('onFailed', ids.declined));

  // 3DS, confirmed by the shopper's return.
  ids.challenge = await created(h, '3ds-create', { sku: 'tea', redirect: false });
  await challenged(h, '3ds-pay', ids.challenge);
  const back = await call('3ds-return', 'GET', `/return?checkout_id=${ids.challenge}`, {
    origin: null,
  });
  assert.equal(back.status, 303);
  await sdk.ended(isHookSpan('onPaid', ids.challenge));

  // Paid behind the handler's back; the provider's webhook, whose hook throws the first time.
  ids.webhook = await created(h, 'webhook-create', { sku: 'tea' });
  await provider.checkouts.process(ids.webhook, cardBody(PAID_CARD));
  for (const [requestId, status] of [
    ['webhook-1', 500],
    ['webhook-2', 204],
  ] as const) {
    const res = await webhook(h, requestId, ids.webhook);
    statuses[requestId] = res.status;
    assert.equal(res.status, status);
  }

  // 3DS authenticated, and then nothing: no return, no webhook. Reconciliation finds it.
  ids.abandoned = await created(h, 'abandoned-create', { sku: 'tea', redirect: false });
  await challenged(h, 'abandoned-pay', ids.abandoned);
  reconciled = await h.handle.reconcile();

  // Saved cards of a customer whose id is an email address.
  await provider.customers.create({ customer_id: CUSTOMER, personal_details: PERSONAL });
  const cards = await call(
    'customer',
    'GET',
    `/customers/${encodeURIComponent(CUSTOMER)}/payment-instruments`,
  );
  assert.equal(cards.status, 200);
});

after(async () => {
  await sb.close();
});

const { serverSpan, childrenOf, childNames } = spanTree(sdk);

test('a card payment: a server span per request, each with its provider call as a client child, and the hook under the payment', () => {
  const create = serverSpan('card-create');
  assert.equal(create.name, 'POST /payments/checkouts');
  assert.deepEqual(create.attributes, {
    'http.request.method': 'POST',
    'http.route': '/payments/checkouts',
    'http.response.status_code': 201,
    'url.scheme': 'http',
    'payment_widget.request_id': 'card-create',
    'payment_widget.checkout.id': ids.card,
  });
  assert.equal(parentOf(create), undefined, 'no host span and no traceparent: a root');
  assert.deepEqual(childNames(create), ['POST /v0.1/checkouts']);
  const [call] = childrenOf(create);
  assert.equal(call?.kind, SpanKind.CLIENT);
  const port = Number(new URL(sb.url).port);
  assert.deepEqual(call?.attributes, {
    'http.request.method': 'POST',
    'url.full': `${sb.url}/v0.1/checkouts`,
    'url.template': '/v0.1/checkouts',
    'server.address': '127.0.0.1',
    'server.port': port,
    'http.response.status_code': 201,
  });

  const pay = serverSpan('card-pay');
  assert.equal(pay.name, 'PUT /payments/checkouts/:id');
  assert.equal(pay.attributes['http.route'], '/payments/checkouts/:id');
  assert.equal(pay.attributes['http.response.status_code'], 200);
  assert.deepEqual(childNames(pay), ['PUT /v0.1/checkouts/{id}', 'payment_widget.hook onPaid']);
  const process = childrenOf(pay).find((s) => s.kind === SpanKind.CLIENT);
  assert.equal(process?.attributes['url.full'], `${sb.url}/v0.1/checkouts/${ids.card}`);
  assert.equal(process?.attributes['url.template'], '/v0.1/checkouts/{id}');
  const hook = childrenOf(pay).find((s) => s.name === 'payment_widget.hook onPaid');
  assert.deepEqual(hook?.attributes, {
    'payment_widget.hook': 'onPaid',
    'payment_widget.hook.result': 'ran',
    'payment_widget.checkout.id': ids.card,
  });
  // Every span of the payment is in the request's trace.
  const trace = pay.spanContext().traceId;
  for (const child of childrenOf(pay)) assert.equal(child.spanContext().traceId, trace);
});

test('a payment the provider refuses is an error on both spans; one over the limit never reaches the provider', () => {
  const again = serverSpan('card-again');
  assert.equal(statuses['card-again'], 409);
  // A 4xx is the client's doing: no error on the server span, one on the client span.
  assert.equal(again.attributes['error.type'], undefined);
  const [call] = childrenOf(again);
  assert.equal(call?.attributes['http.response.status_code'], 409);
  assert.equal(call?.attributes['error.type'], '409');
  assert.equal(call?.status.code, 2);

  const refused = serverSpan('card-refused');
  assert.equal(refused.attributes['http.response.status_code'], 429);
  assert.deepEqual(childNames(refused), []);
});

test('3DS: the challenge answer, then the return page with its read and the hook', () => {
  const pay = serverSpan('3ds-pay');
  assert.equal(pay.attributes['http.response.status_code'], 202);
  assert.deepEqual(childNames(pay), ['PUT /v0.1/checkouts/{id}']);
  const back = serverSpan('3ds-return');
  assert.equal(back.name, 'GET /payments/return');
  assert.equal(back.attributes['http.response.status_code'], 303);
  assert.deepEqual(childNames(back), ['GET /v0.1/checkouts/{id}', 'payment_widget.hook onPaid']);
});

test('a webhook: the hook that threw is a failed span with its error type and no message; the redelivery runs it', () => {
  const first = serverSpan('webhook-1');
  assert.equal(first.name, 'POST /payments/webhook');
  assert.equal(first.attributes['http.response.status_code'], 500);
  assert.equal(first.attributes['error.type'], '500');
  assert.equal(first.status.code, 2);
  const threw = childrenOf(first).find((s) => s.name === 'payment_widget.hook onPaid');
  assert.equal(threw?.attributes['payment_widget.hook.result'], 'threw');
  assert.equal(threw?.attributes['error.type'], 'Error');
  assert.equal(threw?.status.code, 2);
  assert.equal(threw?.status.message, undefined);
  assert.deepEqual(threw?.events, []);

  const second = serverSpan('webhook-2');
  assert.equal(second.attributes['http.response.status_code'], 204);
  assert.deepEqual(childNames(second), ['GET /v0.1/checkouts/{id}', 'payment_widget.hook onPaid']);
  const ran = childrenOf(second).find((s) => s.name === 'payment_widget.hook onPaid');
  assert.equal(ran?.attributes['payment_widget.hook.result'], 'ran');
});

test('a reconciliation: one span with its report, the provider reads and the hook it ran inside', () => {
  assert.equal(reconciled.ran, 1);
  const runs = sdk.spans().filter((s) => s.name === 'payment_widget.reconcile');
  assert.equal(runs.length, 1);
  const run = runs[0]!;
  assert.deepEqual(run.attributes, {
    'payment_widget.reconcile.checked': reconciled.checked,
    'payment_widget.reconcile.ran': reconciled.ran,
    'payment_widget.reconcile.open': reconciled.open,
    'payment_widget.reconcile.closed': reconciled.closed,
    'payment_widget.reconcile.errors': reconciled.errors,
  });
  const children = childrenOf(run);
  const reads = children.filter((s) => s.name === 'GET /v0.1/checkouts/{id}');
  assert.equal(reads.length, reconciled.checked + reconciled.errors);
  const hook = children.find(isHookSpan('onPaid', ids.abandoned!));
  assert.equal(hook?.attributes['payment_widget.hook.result'], 'ran');
});

test("a customer's id stays out of every span: the route is the pattern, the provider's URL hides it", () => {
  const lookup = serverSpan('customer');
  assert.equal(
    lookup.attributes['http.route'],
    '/payments/customers/:customerId/payment-instruments',
  );
  const [call] = childrenOf(lookup);
  assert.equal(call?.name, 'GET /v0.1/customers/{customer_id}/payment-instruments');
  assert.equal(
    call?.attributes['url.full'],
    `${sb.url}/v0.1/customers/REDACTED/payment-instruments`,
  );
});

test('the metrics, as the contract names them', async () => {
  const all = await sdk.metrics();
  const names = [...new Set(all.map((p) => p.name))].sort();
  assert.deepEqual(names, [
    'http.client.request.duration',
    'http.server.request.duration',
    'payment_widget.checkouts.created',
    'payment_widget.hook.duration',
    'payment_widget.payments',
    'payment_widget.rate_limit.refused',
    'payment_widget.reconcile.open',
  ]);

  const server = 'http.server.request.duration';
  assert.ok(all.filter((p) => p.name === server).every((p) => p.unit === 's'));
  assert.equal(
    total(
      points(all, server, { 'http.route': '/payments/checkouts', 'http.request.method': 'POST' }),
    ),
    5,
  );
  assert.equal(total(points(all, server, { 'http.response.status_code': 429 })), 1);
  assert.deepEqual(
    points(all, server, {
      'http.route': '/payments/webhook',
      'http.response.status_code': 500,
    }).map((p) => p.attributes['error.type']),
    ['500'],
  );

  const client = 'http.client.request.duration';
  const port = Number(new URL(sb.url).port);
  assert.ok(
    points(all, client).every(
      (p) => p.attributes['server.address'] === '127.0.0.1' && p.attributes['server.port'] === port,
    ),
  );
  // The card's two, the declined card's, both challenges (the webhook's was paid elsewhere).
  assert.equal(total(points(all, client, { 'http.request.method': 'PUT' })), 5);
  assert.equal(total(points(all, client, { 'error.type': '409' })), 1);
  // A call's URL is on its span only.
  assert.ok(
    points(all, client).every(
      (p) => p.attributes['url.full'] === undefined && p.attributes['url.template'] === undefined,
    ),
  );

  assert.equal(total(points(all, 'payment_widget.checkouts.created')), 5);
  const payments = 'payment_widget.payments';
  const byOutcome = (outcome: string) =>
    total(
      points(all, payments, { 'payment_widget.outcome': outcome, 'payment_widget.method': 'card' }),
    );
  assert.deepEqual(['paid', 'failed', 'next_step', 'error'].map(byOutcome), [1, 1, 2, 1]);

  const hooks = 'payment_widget.hook.duration';
  const runs = (hook: string, result: string) =>
    total(
      points(all, hooks, { 'payment_widget.hook': hook, 'payment_widget.hook.result': result }),
    );
  assert.equal(runs('onPaid', 'ran'), 4);
  assert.equal(runs('onPaid', 'threw'), 1);
  assert.equal(runs('onFailed', 'ran'), 1);
  assert.ok(points(all, hooks).every((p) => p.unit === 's'));

  assert.deepEqual(
    points(all, 'payment_widget.reconcile.open').map((p) => p.value),
    [reconciled.open],
  );
  assert.deepEqual(
    points(all, 'payment_widget.rate_limit.refused').map((p) => [p.attributes, p.value]),
    [[{ 'payment_widget.limit': 'paymentsPerCheckout' }, 1]],
  );
});

test('log entries carry the trace and span ids and the request id of the request they were written in', () => {
  const entries = h.logs.map((line) => JSON.parse(line) as Record<string, unknown>);
  const made = entries.find((e) => e.message === 'checkout created' && e.checkoutId === ids.card);
  const create = serverSpan('card-create');
  assert.equal(made?.requestId, 'card-create');
  assert.equal(made?.traceId, create.spanContext().traceId);
  assert.equal(made?.spanId, create.spanContext().spanId);
  const access = entries.find((e) => e.message === 'request' && e.requestId === 'card-pay');
  assert.equal(access?.traceId, serverSpan('card-pay').spanContext().traceId);
  // The provider's refusal, logged where the error becomes the answer.
  const refusal = entries.find((e) => e.requestId === 'card-again' && e.providerStatus === 409);
  assert.equal(refusal?.traceId, serverSpan('card-again').spanContext().traceId);
});

test('no span, metric attribute or log entry holds a card number, the CVV, the API key or the customer’s details', async () => {
  const texts: string[] = [];
  for (const span of sdk.spans()) {
    texts.push(
      JSON.stringify({
        name: span.name,
        attributes: span.attributes,
        events: span.events,
        status: span.status,
        links: span.links,
        resource: span.resource.attributes,
      }),
    );
  }
  for (const point of await sdk.metrics()) texts.push(JSON.stringify(point.attributes));
  for (const text of texts) assert.ok(!text.includes(HOOK_ERROR), text);
  texts.push(...h.logs);
  assert.ok(texts.length > 50, `a full run records plenty: ${texts.length}`);
  const secrets = [
    PAID_CARD,
    CHALLENGE_CARD,
    API_KEY,
    API_KEY.slice('sk_test_'.length),
    CUSTOMER,
    encodeURIComponent(CUSTOMER),
    'Augusta',
    'Lovelace',
    // The phone as written and as digits only (E.164 included): a part as short as `7946`
    // turns up in random hex ids (trace, span and checkout ids).
    '7946 0958',
    '2079460958',
    'Analytical',
    'Marylebone',
    'NW1 6XE',
  ];
  // The CVV as a value or a word of one: not three digits inside a random hex id (a trace id
  // ending in `b739`), which any run may draw.
  const cvv = new RegExp(`(^|[^0-9A-Za-z])${CVV}([^0-9A-Za-z]|$)`);
  for (const text of texts) {
    for (const secret of secrets) assert.ok(!text.includes(secret), `${secret} in ${text}`);
    // Only string values could hold the CVV: numbers are durations, ports and counts.
    const strings = JSON.stringify(text.match(/"(?:[^"\\]|\\.)*"/g));
    assert.doesNotMatch(strings, cvv, text);
  }
});
