// Checkouts that are not plain purchases: what the merchant's resolveCheckout may return as an
// amount, end to end through the handler and the sandbox. An amount that cannot be a charge
// (negative, NaN, off the currency's minor unit, 0 for a purchase, too large to carry exactly)
// is refused when resolved, by its name, before the provider is called; one that can (0 to save
// a card, whole pesos and forints, a large invoice, a dinar to the fils) is made, offered its
// methods as the widget asks for them, and paid.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Sandbox } from '../../../src/sandbox/index.ts';
import type { PaymentHandlerError, ResolvedCheckout } from '../../../src/server/index.ts';
import { cardBody } from '../support/cards.ts';
import { checkoutsCreated, type Harness, makeHandler, request, startSandbox } from './fixtures.ts';

const CUSTOMER = 'cus_amounts';

describe('the amounts resolveCheckout returns', () => {
  let sb: Sandbox;
  let h: Harness;
  /** What resolveCheckout answers next. */
  let resolved: ResolvedCheckout = { amount: 10, currency: 'EUR' };
  before(async () => {
    sb = await startSandbox();
    const made = await fetch(`${sb.url}/v0.1/customers`, {
      method: 'POST',
      headers: { authorization: `Bearer ${sb.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ customer_id: CUSTOMER }),
    });
    assert.equal(made.status, 201, await made.text());
    h = makeHandler(sb, { resolveCheckout: () => resolved });
  });
  after(() => sb.close());

  /** The widget's calls for a checkout: create it, ask for its methods as it does, pay by card. */
  async function payThrough(terms: ResolvedCheckout) {
    resolved = terms;
    const created = await h.handle(request('POST', '/checkouts', { body: { order: {} } }));
    assert.equal(created.status, 201, await created.clone().text());
    const checkout = (await created.json()) as Record<string, unknown> & { id: string };
    // As the widget writes the query: each of the checkout's values as JavaScript prints it.
    const query = new URLSearchParams();
    for (const key of ['amount', 'currency', 'purpose']) {
      if (checkout[key] != null) query.set(key, `${checkout[key]}`);
    }
    const methods = await h.handle(request('GET', `/payment-methods?${query}`));
    assert.equal(methods.status, 200, `${query}: ${await methods.clone().text()}`);
    const { available_payment_methods: offered } = (await methods.json()) as {
      available_payment_methods: { id: string }[];
    };
    assert.ok(
      offered.some((m) => m.id === 'card'),
      JSON.stringify(offered),
    );
    const mandate = { type: 'recurrent' as const, user_agent: 'test' };
    const saving = terms.purpose === 'SETUP_RECURRING_PAYMENT';
    const paid = await h.handle(
      request('PUT', `/checkouts/${checkout.id}`, {
        body: cardBody('4200000000000091', saving ? { mandate } : {}),
      }),
    );
    assert.equal(paid.status, 200, await paid.clone().text());
    const body = (await paid.json()) as { status: string; amount: number; currency: string };
    return { checkout, paid: body, offered: offered.map((m) => m.id) };
  }

  const refused: [string, ResolvedCheckout, string, RegExp][] = [
    ['a negative amount', { amount: -5, currency: 'EUR' }, 'amount', /amount must not be negative/],
    [
      'NaN',
      { amount: Number.NaN, currency: 'EUR' },
      'amount',
      /amount must be a finite number \(not NaN\)/,
    ],
    [
      'Infinity',
      { amount: Number.POSITIVE_INFINITY, currency: 'EUR' },
      'amount',
      /amount must be a finite number \(not Infinity\)/,
    ],
    [
      'a fraction of a cent',
      { amount: 10.005, currency: 'EUR' },
      'amount',
      /amount must have at most 2 decimal places in EUR \(not 10\.005\)/,
    ],
    [
      'a fraction of a peso',
      { amount: 1500.5, currency: 'CLP' },
      'amount',
      /amount must be a whole number in CLP \(not 1500\.5\)/,
    ],
    // ISO 4217 writes CFA francs without decimals: 5000.5 XOF is no charge the page can show.
    [
      'a fraction of a CFA franc',
      { amount: 5000.5, currency: 'XOF' },
      'amount',
      /amount must be a whole number in XOF \(not 5000\.5\)/,
    ],
    [
      'a fraction of a Rwandan franc',
      { amount: 1000.25, currency: 'RWF' },
      'amount',
      /amount must be a whole number in RWF \(not 1000\.25\)/,
    ],
    [
      '0 for a purchase',
      { amount: 0, currency: 'EUR' },
      'amount',
      /amount must be greater than 0 \(0 only with purpose SETUP_RECURRING_PAYMENT/,
    ],
    [
      'more than a number carries to the cent',
      { amount: Number('90071992547409.93'), currency: 'EUR' },
      'amount',
      /amount must be less than 10000000000000 in EUR \(not 90071992547409\.94\)/,
    ],
    [
      'a currency in lower case',
      { amount: 10, currency: 'eur' },
      'currency',
      /currency must be a three-letter ISO 4217 code/,
    ],
    [
      'a timestamp in words',
      { amount: 10, currency: 'EUR', validUntil: 'tomorrow' },
      'validUntil',
      /validUntil must be an ISO 8601 timestamp/,
    ],
  ];
  for (const [name, terms, field, problem] of refused) {
    test(`${name} is refused when resolved, naming ${field}, and never reaches the provider`, async () => {
      resolved = terms;
      const before = await checkoutsCreated(sb);
      h.logs.length = 0;
      const res = await h.handle(request('POST', '/checkouts', { body: { order: {} } }));
      assert.equal(res.status, 500);
      const { error } = (await res.json()) as {
        error: { code: string; message: string; field?: string };
      };
      assert.deepEqual([error.code, error.field], ['INVALID_RESOLVED_CHECKOUT', field]);
      assert.match(error.message, problem);
      const logged = h.logs.find((line) => line.includes('resolveCheckout returned'));
      assert.match(logged ?? '', problem);
      assert.match(logged ?? '', new RegExp(`"field":"${field}"`));
      // createCheckout() on the merchant's own page says the same to its caller.
      const thrown = (await h.handle.createCheckout(terms).catch((e) => e)) as PaymentHandlerError;
      assert.deepEqual([thrown.code, thrown.field], ['INVALID_RESOLVED_CHECKOUT', field]);
      assert.match(thrown.message, problem);
      assert.equal(await checkoutsCreated(sb), before);
    });
  }

  test('a reference the handler cannot use is refused naming reference', async () => {
    resolved = { amount: 10, currency: 'EUR', reference: 'order~2' };
    const res = await h.handle(request('POST', '/checkouts', { body: { order: {} } }));
    assert.equal(res.status, 500);
    const { error } = (await res.json()) as { error: { code: string; field?: string } };
    assert.deepEqual([error.code, error.field], ['INVALID_RESOLVED_CHECKOUT', 'reference']);
  });

  test('0 that saves a card is made, offered a card alone, paid, and the card is saved', async () => {
    const { checkout, paid, offered } = await payThrough({
      amount: 0,
      currency: 'EUR',
      purpose: 'SETUP_RECURRING_PAYMENT',
      customerId: CUSTOMER,
    });
    assert.equal(checkout.amount, 0);
    assert.deepEqual(offered, ['card']);
    assert.deepEqual([paid.status, paid.amount], ['PAID', 0]);
    const saved = await fetch(`${sb.url}/v0.1/customers/${CUSTOMER}/payment-instruments`, {
      headers: { authorization: `Bearer ${sb.apiKey}` },
    });
    const cards = (await saved.json()) as { card: { last_4_digits: string } }[];
    assert.ok(cards.some((card) => card.card.last_4_digits === '0091'));
  });

  const payable: [string, ResolvedCheckout][] = [
    ['whole pesos', { amount: 15000, currency: 'CLP' }],
    ['whole forints', { amount: 4990, currency: 'HUF' }],
    // Ten digits before the point: the widget asks for its methods with all of them.
    ['a large invoice', { amount: 1234567890.12, currency: 'EUR' }],
    ['the largest amount to the cent', { amount: 9999999999999.99, currency: 'EUR' }],
    // Three decimals: the widget asks for its methods with the fils.
    ['a dinar to the fils', { amount: 5.125, currency: 'KWD' }],
    // Iraqi and Libyan dinars have three decimals too (ISO 4217), where two were assumed.
    ['an Iraqi dinar to the fils', { amount: 1250.125, currency: 'IQD' }],
    ['a Libyan dinar to the dirham', { amount: 12.345, currency: 'LYD' }],
    ['whole CFA francs', { amount: 5000, currency: 'XOF' }],
  ];
  for (const [name, terms] of payable) {
    test(`${name} (${terms.amount} ${terms.currency}) is made, offered its methods, and paid`, async () => {
      const { checkout, paid } = await payThrough(terms);
      assert.deepEqual([checkout.amount, checkout.currency], [terms.amount, terms.currency]);
      assert.deepEqual(
        [paid.status, paid.amount, paid.currency],
        ['PAID', terms.amount, terms.currency],
      );
    });
  }

  test('GET /payment-methods refuses an amount no checkout can have, naming it', async () => {
    for (const query of [
      'amount=-1&currency=EUR',
      'amount=abc&currency=EUR',
      'amount=1e%2B21&currency=EUR',
      'amount=10.005&currency=EUR',
      'amount=10.5&currency=CLP',
      'amount=5000.5&currency=XOF',
      'amount=1.1255&currency=IQD',
      'amount=10000000000000&currency=EUR',
      // Without a currency, the most decimals any has: four (CLF, the Chilean unidad de fomento).
      'amount=1.00001',
    ]) {
      const res = await h.handle(request('GET', `/payment-methods?${query}`));
      assert.equal(res.status, 400, query);
      const { error } = (await res.json()) as { error: { code: string; field?: string } };
      assert.deepEqual([error.code, error.field], ['INVALID', 'amount'], query);
    }
  });
});
