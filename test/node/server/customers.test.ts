// Saved cards: listed and charged only for a customer the merchant's session owns.
// The provider is scripted here so the test controls which instruments exist.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createPaymentHandler } from '../../../src/server/index.ts';
import { ORIGIN, request } from './fixtures.ts';
import { type ScriptedServer, sendJson, startScriptedServer } from './helpers.ts';

let provider: ScriptedServer;
before(async () => {
  provider = await startScriptedServer((req, res) => {
    if (req.method === 'GET' && req.url === '/v0.1/customers/cus_ada/payment-instruments') {
      return sendJson(res, 200, [
        {
          token: 'tok_live',
          active: true,
          type: 'card',
          card: { last_4_digits: '0091', type: 'VISA' },
        },
        {
          token: 'tok_old',
          active: false,
          type: 'card',
          card: { last_4_digits: '0007', type: 'MASTERCARD' },
        },
      ]);
    }
    if (req.method === 'PUT' && req.url === '/v0.1/checkouts/co_1') {
      return sendJson(res, 200, { id: 'co_1', status: 'PAID', customer_id: 'cus_ada' });
    }
    sendJson(res, 404, { error_code: 'NOT_FOUND', message: 'Resource not found' });
  });
});
after(() => provider.close());

function handler() {
  return createPaymentHandler({
    provider: {
      baseUrl: provider.url,
      apiKey: 'sk_test_customers',
      merchantCode: 'M1',
    },
    publicUrl: 'https://shop.example/payments',
    allowedOrigins: [ORIGIN],
    resultPages: {
      success: '/ok',
      failure: '/ko',
    },
    resolveCheckout: () => ({ amount: 1, currency: 'EUR' }),
    // The signed-in shopper is Ada (a real app reads its session cookie here).
    authorizeCustomer: (_request, customerId) => customerId === 'cus_ada',
  });
}

test('the signed-in customer sees their active saved cards only', async () => {
  const res = await handler()(request('GET', '/customers/cus_ada/payment-instruments'));
  assert.equal(res.status, 200);
  const cards = await res.json();
  assert.deepEqual(
    cards.map((c: { token: string }) => c.token),
    ['tok_live'],
  );
});

test("another customer's cards are refused before the provider is asked", async () => {
  const before = provider.seen.length;
  const res = await handler()(request('GET', '/customers/cus_bob/payment-instruments'));
  assert.equal(res.status, 403);
  assert.equal(provider.seen.length, before);
});

test('paying with a token forwards token and customer_id for the authorised customer', async () => {
  const res = await handler()(
    request('PUT', '/checkouts/co_1', {
      body: { payment_type: 'card', token: 'tok_live', customer_id: 'cus_ada', amount: 0.01 },
    }),
  );
  assert.equal(res.status, 200);
  assert.equal((await res.json()).status, 'PAID');
  const forwarded = provider.seen.find((r) => r.method === 'PUT');
  // Fields the provider does not define (like a smuggled amount) are not forwarded.
  assert.deepEqual(JSON.parse(forwarded?.body ?? '{}'), {
    payment_type: 'card',
    token: 'tok_live',
    customer_id: 'cus_ada',
  });
});

test("a card saved with another customer's id is refused before the provider is asked", async () => {
  const before = provider.seen.length;
  const res = await handler()(
    request('PUT', '/checkouts/co_1', {
      body: {
        payment_type: 'card',
        customer_id: 'cus_bob',
        mandate: { type: 'recurrent', user_agent: 'Mozilla/5.0' },
        card: {
          name: 'Mallory Card',
          number: '4200000000000091',
          expiry_month: '12',
          expiry_year: '2030',
          cvv: '123',
          last_4_digits: '0091',
          type: 'VISA',
        },
      },
    }),
  );
  assert.equal(res.status, 403);
  assert.equal((await res.json()).error.field, 'customer_id');
  assert.equal(provider.seen.length, before);
});
