// The handler's own answers, route by route, against the schemas the browser tests' fake
// answers are checked with (test/shared/handler-answers.ts): a widget test can only be
// given what the real handler, in front of a real sandbox, gives.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Sandbox } from '../../../src/sandbox/index.ts';
import { notAHandlerAnswer } from '../../shared/handler-answers.ts';
import { cardBody } from '../support/cards.ts';
import { handlerPerTest, makeHandler, request } from './fixtures.ts';

let sb: Sandbox;
handlerPerTest((s) => {
  sb = s;
});

const SAVED = 'cus_answers';

/** Calls the handler; fails naming the route when its answer is not one the schemas allow. */
async function call(
  handle: (request: Request) => Promise<Response>,
  method: string,
  path: string,
  body?: unknown,
) {
  const res = await handle(request(method, path, body === undefined ? {} : { body }));
  const answer: unknown = await res.json();
  const route = path.split('?')[0] ?? path;
  assert.equal(notAHandlerAnswer(method, route, res.status, answer), undefined);
  return { status: res.status, body: answer as Record<string, unknown> };
}

/** A provider call with the sandbox's key, as the merchant's own server makes it. */
async function provider(method: string, path: string, body: unknown) {
  const res = await fetch(new URL(path, sb.url), {
    method,
    headers: { authorization: `Bearer ${sb.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return (await res.json()) as Record<string, unknown>;
}

test('each route answers within the schemas, whatever the outcome', async () => {
  const { handle } = makeHandler(sb, { authorizeCustomer: (_, id) => id === SAVED });
  const seen: string[] = [];
  const answer = async (method: string, path: string, body?: unknown) => {
    const result = await call(handle, method, path, body);
    seen.push(`${method} ${path.replace(/\/[0-9a-f-]{36}/, '/:id')} ${result.status}`);
    return result;
  };

  const created = await answer('POST', '/checkouts', { order: { sku: 'tea' } });
  const id = String(created.body.id);
  await answer('GET', `/checkouts/${id}`);
  // A challenge: the 202, then the checkout read back with its open step.
  const step = await answer('PUT', `/checkouts/${id}`, cardBody('4200000000000042'));
  assert.ok(step.body.next_step);
  const open = await answer('GET', `/checkouts/${id}`);
  assert.ok(open.body.next_step);
  // Another card pays it; then a declined one on the basket's next checkout, and a retry.
  assert.equal(
    (await answer('PUT', `/checkouts/${id}`, cardBody('4200000000000091'))).body.status,
    'PAID',
  );
  await answer('GET', `/checkouts/${id}`);
  const next = await answer('POST', '/checkouts', { order: { sku: 'declined' } });
  const declined = await answer(
    'PUT',
    `/checkouts/${String(next.body.id)}`,
    cardBody('4200000000000091'),
  );
  assert.equal(declined.body.status, 'FAILED');
  await answer('POST', `/checkouts/${String(next.body.id)}/retry`);
  await answer('GET', '/payment-methods?amount=10&currency=EUR');
  // A saved card, listed for the customer who saved it.
  await provider('POST', '/v0.1/customers', { customer_id: SAVED });
  const setup = await provider('POST', '/v0.1/checkouts', {
    checkout_reference: 'answers-setup',
    amount: 0,
    currency: 'EUR',
    merchant_code: sb.merchantCode,
    purpose: 'SETUP_RECURRING_PAYMENT',
    customer_id: SAVED,
  });
  await provider(
    'PUT',
    `/v0.1/checkouts/${String(setup.id)}`,
    cardBody('5200000000000007', {
      mandate: { type: 'recurrent', user_agent: 'Mozilla/5.0 (test)', user_ip: '192.0.2.1' },
    }),
  );
  const saved = await answer('GET', `/customers/${SAVED}/payment-instruments`);
  assert.equal((saved.body as unknown as unknown[]).length, 1);
  // Errors: a missing field, a checkout paid already, an unknown one.
  await answer('POST', '/checkouts', {});
  await answer('PUT', `/checkouts/${id}`, cardBody('4200000000000091'));
  await answer('GET', '/checkouts/00000000-0000-4000-8000-000000000000');
  assert.deepEqual(seen, [
    'POST /checkouts 201',
    'GET /checkouts/:id 200',
    'PUT /checkouts/:id 202',
    'GET /checkouts/:id 200',
    'PUT /checkouts/:id 200',
    'GET /checkouts/:id 200',
    'POST /checkouts 201',
    'PUT /checkouts/:id 200',
    'POST /checkouts/:id/retry 201',
    'GET /payment-methods?amount=10&currency=EUR 200',
    `GET /customers/${SAVED}/payment-instruments 200`,
    'POST /checkouts 400',
    'PUT /checkouts/:id 409',
    'GET /checkouts/:id 404',
  ]);
});

test('an answer the handler cannot give is named with why', () => {
  const checkout = { id: 'chk_1', status: 'PENDING', amount: 10, currency: 'EUR' };
  assert.equal(notAHandlerAnswer('GET', '/checkouts/chk_1', 200, checkout), undefined);
  assert.match(
    notAHandlerAnswer('GET', '/checkouts/chk_1', 200, { ...checkout, return_url: 'x' }) ?? '',
    /return_url/,
  );
  assert.match(
    notAHandlerAnswer('GET', '/checkouts/chk_1', 200, { ...checkout, status: 'DONE' }) ?? '',
    /status/,
  );
  assert.match(notAHandlerAnswer('PUT', '/checkouts/chk_1', 201, checkout) ?? '', /200 or 202/);
  const tooMany = { error: { code: 'TOO_MANY_REQUESTS', message: 'slow down', retryable: false } };
  assert.equal(notAHandlerAnswer('PUT', '/checkouts/chk_1', 429, tooMany), undefined);
  assert.match(notAHandlerAnswer('PUT', '/checkouts/chk_1', 503, tooMany) ?? '', /429/);
  assert.match(notAHandlerAnswer('PUT', '/checkouts/chk_1', 503, '<html>') ?? '', /error body/);
});
