// The handler's own answers, route by route, against the schemas the browser tests' fake
// answers are checked with (test/shared/handler-answers.ts): a widget test can only be
// given what the real handler, in front of a real sandbox, gives. (answer-codes.test.ts shows
// the other direction: each error code the schemas allow on a route, the handler answers there.)
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
  assert.equal(notAHandlerAnswer(method, route, res.status, answer, res.headers), undefined);
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
  const checkout = {
    id: 'chk_1',
    checkout_reference: 'order-1',
    amount: 10,
    currency: 'EUR',
    merchant_code: 'MSANDBOX1',
    status: 'PENDING',
  };
  const read = (body: unknown) => notAHandlerAnswer('GET', '/checkouts/chk_1', 200, body);
  assert.equal(read(checkout), undefined);
  assert.match(read({ ...checkout, return_url: 'x' }) ?? '', /return_url/);
  assert.match(read({ ...checkout, status: 'DONE' }) ?? '', /status/);
  // Every checkout the provider answers has these.
  assert.match(read({}) ?? '', /id.*checkout_reference.*amount.*currency.*merchant_code.*status/);
  const { merchant_code: _code, ...noMerchant } = checkout;
  assert.match(read(noMerchant) ?? '', /merchant_code/);
  // An open step is a pending checkout's only: a paid one's step is over.
  const step = { next_step: { url: 'https://acs.example/challenge' }, payment_type: 'card' };
  assert.equal(read({ ...checkout, ...step }), undefined);
  assert.match(read({ ...checkout, ...step, status: 'PAID' }) ?? '', /only a pending checkout/);
  // A checkout the handler just made is pending.
  assert.match(
    notAHandlerAnswer('POST', '/checkouts', 201, { ...checkout, status: 'PAID' }) ?? '',
    /status/,
  );
  assert.match(notAHandlerAnswer('PUT', '/checkouts/chk_1', 201, checkout) ?? '', /200 or 202/);
  // A 429 always says when to try again.
  const tooMany = { error: { code: 'TOO_MANY_REQUESTS', message: 'slow down', retryable: false } };
  const wait = { 'retry-after': '60' };
  assert.equal(notAHandlerAnswer('PUT', '/checkouts/chk_1', 429, tooMany, wait), undefined);
  assert.match(notAHandlerAnswer('PUT', '/checkouts/chk_1', 429, tooMany) ?? '', /Retry-After/);
  assert.match(notAHandlerAnswer('PUT', '/checkouts/chk_1', 503, tooMany, wait) ?? '', /429/);
  // A code the route never answers; a route's code on another route.
  const error = (code: string) => ({ error: { code, message: 'no', retryable: false } });
  assert.match(
    notAHandlerAnswer('GET', '/checkouts/chk_1', 409, error('CHECKOUT_PROCESSED')) ?? '',
    /never answers CHECKOUT_PROCESSED/,
  );
  assert.match(
    notAHandlerAnswer('PUT', '/checkouts/chk_1', 503, error('HOOK_RUNNING')) ?? '',
    /never answers HOOK_RUNNING/,
  );
  assert.equal(
    notAHandlerAnswer('PUT', '/checkouts/chk_1', 409, error('CHECKOUT_PROCESSED')),
    undefined,
  );
  // Where no route matches: 404, or 405 for a known path.
  assert.equal(notAHandlerAnswer('GET', '/nope', 404, error('NOT_FOUND')), undefined);
  assert.equal(
    notAHandlerAnswer('DELETE', '/checkouts/chk_1', 405, error('METHOD_NOT_ALLOWED')),
    undefined,
  );
  assert.match(notAHandlerAnswer('GET', '/nope', 500, error('INTERNAL')) ?? '', /no such route/);
  assert.match(notAHandlerAnswer('PUT', '/checkouts/chk_1', 503, '<html>') ?? '', /error body/);
});
