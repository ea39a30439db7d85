import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  CheckoutSchema,
  PaymentMethodsResponseSchema,
  ProcessAcceptedSchema,
} from '../../../src/schemas/index.ts';
import { cardBody } from '../support/cards.ts';
import { checkoutBody, expectValid, type Harness, startSandbox } from './helpers.ts';

let h: Harness;
before(async () => {
  h = await startSandbox();
});
after(() => h.sandbox.close());

async function create(extra: Record<string, unknown> = {}) {
  const res = await h.api('POST', '/v0.1/checkouts', checkoutBody(extra));
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return expectValid(CheckoutSchema, res.body);
}

describe('create, list, retrieve', () => {
  test('create answers 201 with a PENDING checkout and the merchant defaults', async () => {
    const c = await create({ description: 'Mug', redirect_url: 'https://shop.example/done' });
    assert.equal(c.status, 'PENDING');
    assert.equal(c.amount, 10);
    assert.equal(c.pay_to_email, 'merchant@example.com');
    assert.equal(c.merchant_country, 'DE');
    assert.equal(c.purpose, 'CHECKOUT');
    assert.deepEqual(c.transactions, []);
    assert.equal(c.redirect_url, 'https://shop.example/done');
  });

  test('retrieve returns the same checkout; unknown id is 404 NOT_FOUND', async () => {
    const c = await create();
    const res = await h.api('GET', `/v0.1/checkouts/${c.id}`);
    assert.equal(res.status, 200);
    assert.deepEqual(expectValid(CheckoutSchema, res.body), c);
    h.expectError(await h.api('GET', '/v0.1/checkouts/nope'), 404, 'NOT_FOUND');
  });

  test('list filters by checkout_reference', async () => {
    const c = await create();
    const res = await h.api('GET', `/v0.1/checkouts?checkout_reference=${c.checkout_reference}`);
    assert.equal(res.status, 200);
    assert.ok(Array.isArray(res.body));
    const items = (res.body as unknown[]).map((b) => expectValid(CheckoutSchema, b));
    assert.deepEqual(
      items.map((i) => i.id),
      [c.id],
    );
    const all = await h.api('GET', '/v0.1/checkouts');
    assert.ok((all.body as unknown[]).length > 1);
  });

  test('duplicate checkout_reference is 409 DUPLICATED_CHECKOUT', async () => {
    const body = checkoutBody();
    assert.equal((await h.api('POST', '/v0.1/checkouts', body)).status, 201);
    h.expectError(await h.api('POST', '/v0.1/checkouts', body), 409, 'DUPLICATED_CHECKOUT');
  });

  const bad: [string, Record<string, unknown>, string, string][] = [
    ['missing amount', { amount: undefined }, 'MISSING', 'amount'],
    ['string amount', { amount: '10' }, 'INVALID', 'amount'],
    ['zero amount', { amount: 0 }, 'INVALID', 'amount'],
    ['an amount off the cent', { amount: 0.1 * 3 }, 'INVALID', 'amount'],
    ['a fraction of a forint', { amount: 1000.5, currency: 'HUF' }, 'INVALID', 'amount'],
    ['a fraction of a CFA franc', { amount: 5000.5, currency: 'XOF' }, 'INVALID', 'amount'],
    ['a fraction of a Guinean franc', { amount: 20000.5, currency: 'GNF' }, 'INVALID', 'amount'],
    ['an amount past 15 digits', { amount: 1e13 }, 'INVALID', 'amount'],
    ['1e+21, in JSON', { amount: 1e21 }, 'INVALID', 'amount'],
    ['missing currency', { currency: undefined }, 'MISSING', 'currency'],
    ['bad currency', { currency: 'euro' }, 'INVALID', 'currency'],
    ['missing merchant_code', { merchant_code: undefined }, 'MISSING', 'merchant_code'],
    ['another merchant', { merchant_code: 'MOTHER' }, 'INVALID', 'merchant_code'],
    [
      'missing checkout_reference',
      { checkout_reference: undefined },
      'MISSING',
      'checkout_reference',
    ],
    ['ftp return_url', { return_url: 'ftp://x.example/' }, 'INVALID', 'return_url'],
    ['bad valid_until', { valid_until: 'tomorrow' }, 'INVALID', 'valid_until'],
  ];
  for (const [name, extra, code, param] of bad) {
    test(`create refuses ${name}: 400 ${code} ${param}`, async () => {
      h.expectError(await h.api('POST', '/v0.1/checkouts', checkoutBody(extra)), 400, code, param);
    });
  }

  test('create takes an amount to the currency’s minor unit, ISO 4217’s: three decimals of an Iraqi or Libyan dinar, four of a unidad de fomento', async () => {
    for (const [amount, currency] of [
      [1250.125, 'IQD'],
      [12.345, 'LYD'],
      [5000, 'XOF'],
      [1.2345, 'CLF'],
    ] as const) {
      const res = await h.api('POST', '/v0.1/checkouts', checkoutBody({ amount, currency }));
      assert.equal(res.status, 201, `${amount} ${currency}: ${JSON.stringify(res.body)}`);
      const made = res.body as { amount: number; currency: string };
      assert.deepEqual([made.amount, made.currency], [amount, currency]);
    }
  });

  test('a body that is not JSON is 400 INVALID', async () => {
    h.expectError(await h.api('POST', '/v0.1/checkouts', '{nope'), 400, 'INVALID', 'body');
  });
});

const TECHNICAL_ERROR = new Set(['4012001037461114', '5434580000000006']);

describe('card outcomes', () => {
  const cases: [string, string, number, string][] = [
    ['4200000000000091', 'VISA', 10, 'PAID'],
    ['4200000000000026', 'VISA', 10, 'PAID'],
    ['5200000000000007', 'MASTERCARD', 10, 'PAID'],
    ['5200000000000056', 'MASTERCARD', 10, 'PAID'],
    ['4012001037461114', 'VISA', 10, 'FAILED'],
    ['5434580000000006', 'MASTERCARD', 10, 'FAILED'],
    ['4111111111111111', 'VISA', 10, 'PAID'],
    ['4200000000000091', 'VISA', 11, 'FAILED'],
    ['5200000000000007', 'MASTERCARD', 42.01, 'FAILED'],
    ['4111111111111111', 'VISA', 42.76, 'FAILED'],
    ['4200000000000026', 'VISA', 42.91, 'FAILED'],
  ];
  for (const [number, network, amount, status] of cases) {
    test(`${number} for ${amount} -> ${status}`, async () => {
      const c = await create({ amount });
      const res = await h.api('PUT', `/v0.1/checkouts/${c.id}`, cardBody(number));
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const out = expectValid(CheckoutSchema, res.body);
      assert.equal(out.status, status);
      if (TECHNICAL_ERROR.has(number)) {
        // 3DS could not run: the issuer was never asked, so there is no payment to record
        // (which is how the widget tells "the bank could not be reached" from a decline).
        assert.deepEqual(out.transactions ?? [], []);
        assert.equal(out.transaction_code, undefined);
        return;
      }
      assert.equal(out.transactions?.length, 1);
      const txn = out.transactions![0]!;
      assert.equal(txn.status, status === 'PAID' ? 'SUCCESSFUL' : 'FAILED');
      assert.equal(txn.payment_type, 'ECOM');
      assert.equal(txn.amount, amount);
      if (status === 'PAID') {
        assert.equal(out.transaction_code, txn.transaction_code);
        assert.equal(out.transaction_id, txn.id);
        assert.match(txn.auth_code ?? '', /^\d{6}$/);
      } else {
        assert.equal(out.transaction_code, undefined);
      }
      // The card never comes back, in any form beyond its last four digits.
      assert.ok(!JSON.stringify(res.body).includes(number));
      const full = await h.api('GET', `/v2.1/merchants/MSANDBOX1/transactions?id=${txn.id}`);
      assert.deepEqual((full.body as { card: unknown }).card, {
        last_4_digits: number.slice(-4),
        type: network,
      });
    });
  }

  for (const number of [
    '4200000000000042',
    '4200000000000067',
    '5200000000000015',
    '5200000000000049',
  ]) {
    test(`${number} asks for a 3DS challenge (202)`, async () => {
      const c = await create();
      const res = await h.api('PUT', `/v0.1/checkouts/${c.id}`, cardBody(number));
      assert.equal(res.status, 202);
      expectValid(ProcessAcceptedSchema, res.body);
    });
  }

  const invalidCards: [string, Record<string, unknown>, string, string][] = [
    [
      'Luhn-invalid number',
      { number: '4200000000000092', last_4_digits: '0092' },
      'INVALID',
      'card.number',
    ],
    ['number with spaces', { number: '4200 0000 0000 0091' }, 'INVALID', 'card.number'],
    ['expired card', { expiry_year: '2020' }, 'INVALID', 'card.expiry_year'],
    ['month 13', { expiry_month: '13' }, 'INVALID', 'card.expiry_month'],
    ['2-digit cvv', { cvv: '12' }, 'INVALID', 'card.cvv'],
    ['missing cvv', { cvv: undefined }, 'MISSING', 'card.cvv'],
    ['last 4 that do not match', { last_4_digits: '1234' }, 'INVALID', 'card.last_4_digits'],
    ['unknown network', { type: 'BANKCARD' }, 'INVALID', 'card.type'],
    ['zip code outside the USA', { zip_code: '12345' }, 'INVALID', 'card.zip_code'],
  ];
  for (const [name, patch, code, param] of invalidCards) {
    test(`process refuses ${name}: 400 ${code} ${param}`, async () => {
      const c = await create();
      const body = cardBody('4200000000000091');
      const res = await h.api('PUT', `/v0.1/checkouts/${c.id}`, {
        ...body,
        card: { ...body.card, ...patch },
      });
      h.expectError(res, 400, code, param);
      const after = await h.api('GET', `/v0.1/checkouts/${c.id}`);
      assert.equal(expectValid(CheckoutSchema, after.body).status, 'PENDING');
    });
  }

  test('process without card is 400 MISSING card; unknown payment_type is INVALID', async () => {
    const c = await create();
    h.expectError(
      await h.api('PUT', `/v0.1/checkouts/${c.id}`, { payment_type: 'card' }),
      400,
      'MISSING',
      'card',
    );
    h.expectError(
      await h.api('PUT', `/v0.1/checkouts/${c.id}`, {}),
      400,
      'MISSING',
      'payment_type',
    );
    h.expectError(
      await h.api('PUT', `/v0.1/checkouts/${c.id}`, { payment_type: 'cash' }),
      400,
      'INVALID',
      'payment_type',
    );
    h.expectError(
      await h.api('PUT', '/v0.1/checkouts/nope', cardBody('4200000000000091')),
      404,
      'NOT_FOUND',
    );
  });

  test('installments are refused outside Brazil', async () => {
    const c = await create();
    h.expectError(
      await h.api(
        'PUT',
        `/v0.1/checkouts/${c.id}`,
        cardBody('4200000000000091', { installments: 3 }),
      ),
      400,
      'INVALID',
      'installments',
    );
  });
});

describe('state table', () => {
  test('PENDING -> EXPIRED on deactivate; then processing and deactivating are refused', async () => {
    const c = await create();
    const res = await h.api('DELETE', `/v0.1/checkouts/${c.id}`);
    assert.equal(res.status, 200);
    const expired = expectValid(CheckoutSchema, res.body);
    assert.equal(expired.status, 'EXPIRED');
    assert.deepEqual(expired.transactions, []);
    h.expectError(await h.api('DELETE', `/v0.1/checkouts/${c.id}`), 409, 'CONFLICT');
    h.expectError(
      await h.api('PUT', `/v0.1/checkouts/${c.id}`, cardBody('4200000000000091')),
      409,
      'CONFLICT',
    );
    h.expectError(await h.api('DELETE', '/v0.1/checkouts/nope'), 404, 'NOT_FOUND');
  });

  test('PAID: processing again or deactivating is 409 CHECKOUT_PROCESSED', async () => {
    const c = await create();
    await h.api('PUT', `/v0.1/checkouts/${c.id}`, cardBody('4200000000000091'));
    h.expectError(
      await h.api('PUT', `/v0.1/checkouts/${c.id}`, cardBody('4200000000000091')),
      409,
      'CHECKOUT_PROCESSED',
    );
    h.expectError(await h.api('DELETE', `/v0.1/checkouts/${c.id}`), 409, 'CHECKOUT_PROCESSED');
    const after = expectValid(CheckoutSchema, (await h.api('GET', `/v0.1/checkouts/${c.id}`)).body);
    assert.equal(after.status, 'PAID');
    assert.equal(after.transactions?.length, 1);
  });

  test('FAILED: processing again is 409 CHECKOUT_PROCESSED', async () => {
    const c = await create({ amount: 11 });
    const res = await h.api('PUT', `/v0.1/checkouts/${c.id}`, cardBody('4200000000000091'));
    assert.equal(expectValid(CheckoutSchema, res.body).status, 'FAILED');
    h.expectError(
      await h.api('PUT', `/v0.1/checkouts/${c.id}`, cardBody('4200000000000091')),
      409,
      'CHECKOUT_PROCESSED',
    );
  });

  test('a refused body does not process the checkout: a valid retry pays it', async () => {
    const c = await create();
    h.expectError(
      await h.api('PUT', `/v0.1/checkouts/${c.id}`, cardBody('4200000000000092')),
      400,
      'INVALID',
    );
    const ok = await h.api('PUT', `/v0.1/checkouts/${c.id}`, cardBody('4200000000000091'));
    assert.equal(expectValid(CheckoutSchema, ok.body).status, 'PAID');
  });

  test('after valid_until processing is 409 CONFLICT (param valid_until); before it, it pays', async () => {
    const past = await create({ valid_until: new Date(Date.now() - 1000).toISOString() });
    h.expectError(
      await h.api('PUT', `/v0.1/checkouts/${past.id}`, cardBody('4200000000000091')),
      409,
      'CONFLICT',
      'valid_until',
    );
    const future = await create({ valid_until: new Date(Date.now() + 60_000).toISOString() });
    const res = await h.api('PUT', `/v0.1/checkouts/${future.id}`, cardBody('4200000000000091'));
    assert.equal(expectValid(CheckoutSchema, res.body).status, 'PAID');
  });
});

describe('payment methods', () => {
  test('all five without a filter; filtered by currency', async () => {
    const all = expectValid(
      PaymentMethodsResponseSchema,
      (await h.api('GET', '/v0.1/merchants/MSANDBOX1/payment-methods')).body,
    );
    assert.deepEqual(
      all.available_payment_methods.map((m) => m.id),
      ['card', 'ideal', 'bancontact', 'blik', 'boleto'],
    );
    const eur = expectValid(
      PaymentMethodsResponseSchema,
      (await h.api('GET', '/v0.1/merchants/MSANDBOX1/payment-methods?amount=10.00&currency=EUR'))
        .body,
    );
    assert.deepEqual(
      eur.available_payment_methods.map((m) => m.id),
      ['card', 'ideal', 'bancontact'],
    );
    const brl = expectValid(
      PaymentMethodsResponseSchema,
      (await h.api('GET', '/v0.1/merchants/MSANDBOX1/payment-methods?currency=BRL')).body,
    );
    assert.deepEqual(
      brl.available_payment_methods.map((m) => m.id),
      ['card', 'boleto'],
    );
  });

  test('amount without currency is 400 MISSING currency; another merchant is 404', async () => {
    h.expectError(
      await h.api('GET', '/v0.1/merchants/MSANDBOX1/payment-methods?amount=10'),
      400,
      'MISSING',
      'currency',
    );
    h.expectError(
      await h.api('GET', '/v0.1/merchants/MSANDBOX1/payment-methods?amount=ten&currency=EUR'),
      400,
      'INVALID',
      'amount',
    );
    h.expectError(await h.api('GET', '/v0.1/merchants/MOTHER/payment-methods'), 404, 'NOT_FOUND');
  });
});
