// Bad input to the companion handler (against a real sandbox) is a 4xx whose error names the
// field: malformed process and create bodies, webhooks, broken JSON, wrong ids and query values.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { cardBody, cardBodyWith } from '../support/cards.ts';
import { createCheckout, type Harness, handlerPerTest, request } from './fixtures.ts';

let h: Harness;
handlerPerTest((_sb, harness) => {
  h = harness;
});

describe('bad input is a 4xx naming the field', () => {
  const cases: [string, string, string, Record<string, unknown>, number, string, string][] = [
    [
      'process without payment_type',
      'PUT',
      '/checkouts/ID',
      { card: {} },
      400,
      'MISSING',
      'payment_type',
    ],
    [
      'process with an unknown payment_type',
      'PUT',
      '/checkouts/ID',
      { payment_type: 'cash' },
      400,
      'INVALID',
      'payment_type',
    ],
    [
      'card payment without a card',
      'PUT',
      '/checkouts/ID',
      { payment_type: 'card' },
      400,
      'MISSING',
      'card',
    ],
    [
      'card number with spaces',
      'PUT',
      '/checkouts/ID',
      cardBody('4200 0000 0000 0091'),
      400,
      'INVALID',
      'card.number',
    ],
    [
      'month 13',
      'PUT',
      '/checkouts/ID',
      cardBodyWith('4200000000000091', { expiry_month: '13' }),
      400,
      'INVALID',
      'card.expiry_month',
    ],
    [
      'missing cvv',
      'PUT',
      '/checkouts/ID',
      cardBodyWith('4200000000000091', { cvv: undefined }),
      400,
      'MISSING',
      'card.cvv',
    ],
    [
      'token without customer_id',
      'PUT',
      '/checkouts/ID',
      { payment_type: 'card', token: 'tok_1' },
      400,
      'MISSING',
      'customer_id',
    ],
    [
      'bad personal_details email',
      'PUT',
      '/checkouts/ID',
      { payment_type: 'boleto', personal_details: { email: 'nope' } },
      400,
      'INVALID',
      'personal_details.email',
    ],
    ['create without order', 'POST', '/checkouts', { amount: 10 }, 400, 'MISSING', 'order'],
    [
      'webhook without id',
      'POST',
      '/webhook',
      { event_type: 'CHECKOUT_STATUS_CHANGED' },
      400,
      'MISSING',
      'id',
    ],
    ['webhook with a numeric id', 'POST', '/webhook', { id: 42 }, 400, 'INVALID', 'id'],
  ];
  for (const [name, method, path, body, status, code, field] of cases) {
    test(name, async () => {
      const { id } = await createCheckout(h);
      const res = await h.handle(request(method, path.replace('ID', id), { body }));
      assert.equal(res.status, status);
      const { error } = await res.json();
      assert.equal(error.code, code);
      assert.equal(error.field, field);
      assert.ok(error.message.includes(field.split('.').pop() ?? field), error.message);
    });
  }

  test('broken JSON, wrong ids and query values', async () => {
    const checks: [Request, number, string][] = [
      [request('POST', '/checkouts', { raw: '{"order":' }), 400, 'body'],
      [request('POST', '/checkouts', { raw: '' }), 400, 'body'],
      [request('GET', '/return', { origin: null }), 400, 'checkout_id'],
      [request('GET', '/return?checkout_id=%3Cscript%3E', { origin: null }), 400, 'checkout_id'],
      [request('GET', '/checkouts/a%20b'), 400, 'id'],
      [request('GET', '/payment-methods?currency=eur'), 400, 'currency'],
      [request('GET', '/payment-methods?amount=-3&currency=EUR'), 400, 'amount'],
    ];
    for (const [req, status, field] of checks) {
      const res = await h.handle(req);
      assert.equal(res.status, status, `${req.method} ${req.url}`);
      assert.equal((await res.json()).error.field, field, `${req.method} ${req.url}`);
    }
  });

  test('an unknown checkout is the provider 404', async () => {
    const res = await h.handle(request('GET', '/checkouts/does-not-exist'));
    assert.equal(res.status, 404);
    assert.equal((await res.json()).error.code, 'NOT_FOUND');
  });
});
