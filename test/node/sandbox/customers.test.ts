import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import {
  CheckoutSchema,
  CustomerSchema,
  PaymentInstrumentListSchema,
} from '../../../src/schemas/index.ts';
import { cardBody } from '../support/cards.ts';
import { checkoutBody, expectValid, type Harness, startSandbox } from './helpers.ts';

const harnesses: Harness[] = [];
after(() => Promise.all(harnesses.map((x) => x.sandbox.close())));
async function start(options = {}) {
  const h = await startSandbox(options);
  harnesses.push(h);
  return h;
}

const mandate = {
  type: 'recurrent' as const,
  user_agent: 'Mozilla/5.0 (test)',
  user_ip: '192.0.2.1',
};

describe('customers', () => {
  test('create, get, update only what is sent; duplicates and unknown ids refused', async () => {
    const h = await start();
    const created = await h.api('POST', '/v0.1/customers', {
      customer_id: 'cus-1',
      personal_details: {
        first_name: 'Ada',
        last_name: 'Lovelace',
        email: 'ada@example.com',
        address: { city: 'London', country: 'GB' },
      },
    });
    assert.equal(created.status, 201);
    expectValid(CustomerSchema, created.body);
    h.expectError(
      await h.api('POST', '/v0.1/customers', { customer_id: 'cus-1' }),
      409,
      'CUSTOMER_ALREADY_EXISTS',
    );
    h.expectError(await h.api('POST', '/v0.1/customers', {}), 400, 'MISSING', 'customer_id');
    h.expectError(
      await h.api('POST', '/v0.1/customers', {
        customer_id: 'cus-2',
        personal_details: { email: 'not-an-email' },
      }),
      400,
      'INVALID',
      'personal_details.email',
    );
    const updated = await h.api('PUT', '/v0.1/customers/cus-1', {
      personal_details: { last_name: 'King', address: { line_1: '12 St James Square' } },
    });
    assert.equal(updated.status, 200);
    assert.deepEqual(expectValid(CustomerSchema, updated.body), {
      customer_id: 'cus-1',
      personal_details: {
        first_name: 'Ada',
        last_name: 'King',
        email: 'ada@example.com',
        address: { city: 'London', country: 'GB', line_1: '12 St James Square' },
      },
    });
    const got = await h.api('GET', '/v0.1/customers/cus-1');
    assert.deepEqual(got.body, updated.body);
    h.expectError(await h.api('GET', '/v0.1/customers/nobody'), 404, 'NOT_FOUND');
    h.expectError(await h.api('PUT', '/v0.1/customers/nobody', {}), 404, 'NOT_FOUND');
    h.expectError(
      await h.api('GET', '/v0.1/customers/nobody/payment-instruments'),
      404,
      'NOT_FOUND',
    );
  });
});

describe('tokenized cards', () => {
  test('mandate saves the card; token + customer_id charges it; DELETE deactivates it', async () => {
    const h = await start();
    await h.api('POST', '/v0.1/customers', { customer_id: 'cus-9' });
    const setup = expectValid(
      CheckoutSchema,
      (
        await h.api(
          'POST',
          '/v0.1/checkouts',
          checkoutBody({ amount: 0, purpose: 'SETUP_RECURRING_PAYMENT', customer_id: 'cus-9' }),
        )
      ).body,
    );
    const saved = await h.api(
      'PUT',
      `/v0.1/checkouts/${setup.id}`,
      cardBody('5200000000000007', { mandate }),
    );
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    const out = expectValid(CheckoutSchema, saved.body);
    assert.equal(out.status, 'PAID');
    assert.equal(out.mandate?.type, 'recurrent');
    assert.equal(out.mandate?.status, 'active');
    const token = out.payment_instrument?.token;
    assert.ok(token);

    const list = await h.api('GET', '/v0.1/customers/cus-9/payment-instruments');
    const instruments = expectValid(PaymentInstrumentListSchema, list.body);
    assert.equal(instruments.length, 1);
    assert.equal(instruments[0]?.token, token);
    assert.deepEqual(instruments[0]?.card, { last_4_digits: '0007', type: 'MASTERCARD' });
    assert.equal(instruments[0]?.active, true);

    const c = expectValid(
      CheckoutSchema,
      (await h.api('POST', '/v0.1/checkouts', checkoutBody({ customer_id: 'cus-9' }))).body,
    );
    const paid = await h.api('PUT', `/v0.1/checkouts/${c.id}`, {
      payment_type: 'card',
      token,
      customer_id: 'cus-9',
    });
    assert.equal(paid.status, 200);
    const p = expectValid(CheckoutSchema, paid.body);
    assert.equal(p.status, 'PAID');
    assert.equal(p.payment_instrument?.token, token);

    assert.equal(
      (await h.api('DELETE', `/v0.1/customers/cus-9/payment-instruments/${token}`)).status,
      204,
    );
    assert.deepEqual((await h.api('GET', '/v0.1/customers/cus-9/payment-instruments')).body, []);
    const again = expectValid(
      CheckoutSchema,
      (await h.api('POST', '/v0.1/checkouts', checkoutBody({ customer_id: 'cus-9' }))).body,
    );
    h.expectError(
      await h.api('PUT', `/v0.1/checkouts/${again.id}`, {
        payment_type: 'card',
        token,
        customer_id: 'cus-9',
      }),
      400,
      'INVALID',
      'token',
    );
    h.expectError(
      await h.api('DELETE', '/v0.1/customers/cus-9/payment-instruments/unknown'),
      404,
      'NOT_FOUND',
    );
  });

  test('token errors: without customer_id, of another customer; mandate without a customer', async () => {
    const h = await start();
    await h.api('POST', '/v0.1/customers', { customer_id: 'a' });
    await h.api('POST', '/v0.1/customers', { customer_id: 'b' });
    const setup = expectValid(
      CheckoutSchema,
      (await h.api('POST', '/v0.1/checkouts', checkoutBody({ customer_id: 'a' }))).body,
    );
    const saved = await h.api(
      'PUT',
      `/v0.1/checkouts/${setup.id}`,
      cardBody('4200000000000091', { mandate }),
    );
    const token = expectValid(CheckoutSchema, saved.body).payment_instrument?.token;
    assert.ok(token);
    const c = expectValid(
      CheckoutSchema,
      (await h.api('POST', '/v0.1/checkouts', checkoutBody())).body,
    );
    h.expectError(
      await h.api('PUT', `/v0.1/checkouts/${c.id}`, { payment_type: 'card', token }),
      400,
      'MISSING',
      'customer_id',
    );
    h.expectError(
      await h.api('PUT', `/v0.1/checkouts/${c.id}`, {
        payment_type: 'card',
        token,
        customer_id: 'b',
      }),
      400,
      'INVALID',
      'token',
    );
    h.expectError(
      await h.api('PUT', `/v0.1/checkouts/${c.id}`, cardBody('4200000000000091', { mandate })),
      400,
      'MISSING',
      'customer_id',
    );
    h.expectError(
      await h.api('PUT', `/v0.1/checkouts/${c.id}`, {
        ...cardBody('4200000000000091'),
        mandate: { type: 'once' },
      }),
      400,
      'INVALID',
      'mandate.type',
    );
  });

  test('a 3DS card with a mandate is saved only once the challenge succeeds', async () => {
    const h = await start();
    await h.api('POST', '/v0.1/customers', { customer_id: 'c3' });
    const c = expectValid(
      CheckoutSchema,
      (await h.api('POST', '/v0.1/checkouts', checkoutBody({ customer_id: 'c3' }))).body,
    );
    const res = await h.api(
      'PUT',
      `/v0.1/checkouts/${c.id}`,
      cardBody('4200000000000042', { mandate }),
    );
    assert.equal(res.status, 202);
    assert.deepEqual((await h.api('GET', '/v0.1/customers/c3/payment-instruments')).body, []);
    const payload = (res.body as { next_step: { payload: Record<string, string> } }).next_step
      .payload;
    await fetch(payload.TermUrl!, {
      method: 'POST',
      body: new URLSearchParams({ MD: payload.MD!, PaRes: 'Y' }),
      redirect: 'manual',
    });
    const list = expectValid(
      PaymentInstrumentListSchema,
      (await h.api('GET', '/v0.1/customers/c3/payment-instruments')).body,
    );
    assert.equal(list.length, 1);
    assert.equal(list[0]?.card?.last_4_digits, '0042');
  });
});

describe('merchant country', () => {
  test('Brazil accepts installments 1-12 on cards; others refuse them', async () => {
    const h = await start({ country: 'BR' });
    const c = expectValid(
      CheckoutSchema,
      (await h.api('POST', '/v0.1/checkouts', checkoutBody({ currency: 'BRL' }))).body,
    );
    assert.equal(c.merchant_country, 'BR');
    h.expectError(
      await h.api(
        'PUT',
        `/v0.1/checkouts/${c.id}`,
        cardBody('4200000000000091', { installments: 13 }),
      ),
      400,
      'INVALID',
      'installments',
    );
    const res = await h.api(
      'PUT',
      `/v0.1/checkouts/${c.id}`,
      cardBody('4200000000000091', { installments: 6 }),
    );
    const out = expectValid(CheckoutSchema, res.body);
    assert.equal(out.status, 'PAID');
    assert.equal(out.transactions?.[0]?.installments_count, 6);
  });

  test('the USA requires a five-digit zip_code', async () => {
    const h = await start({ country: 'US' });
    const c = expectValid(
      CheckoutSchema,
      (await h.api('POST', '/v0.1/checkouts', checkoutBody({ currency: 'USD' }))).body,
    );
    h.expectError(
      await h.api('PUT', `/v0.1/checkouts/${c.id}`, cardBody('4200000000000091')),
      400,
      'MISSING',
      'card.zip_code',
    );
    h.expectError(
      await h.api(
        'PUT',
        `/v0.1/checkouts/${c.id}`,
        cardBody('4200000000000091', { installments: 2 }),
      ),
      400,
      'INVALID',
      'installments',
    );
    const body = cardBody('4200000000000091');
    const res = await h.api('PUT', `/v0.1/checkouts/${c.id}`, {
      ...body,
      card: { ...body.card, zip_code: '94107' },
    });
    assert.equal(expectValid(CheckoutSchema, res.body).status, 'PAID');
  });
});
