// A checkout made to save the card: resolveCheckout returns purpose SETUP_RECURRING_PAYMENT
// and the customer to save it to. The provider (here the sandbox) pays it only with a mandate,
// for a customer; the handler offers such a checkout a card alone (a bank's method would pay
// it without saving anything), and a merchant who left out the customer hears it by name when
// the checkout is made, not from a shopper who typed a card in vain. A basket's open purchase
// is not answered for it, nor it for a purchase.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Sandbox } from '../../../src/sandbox/index.ts';
import { cardBody } from '../support/cards.ts';
import {
  CATALOGUE,
  checkoutsCreated,
  type Harness,
  makeHandler,
  request,
  startSandbox,
} from './fixtures.ts';

let sb: Sandbox;
let h: Harness;
before(async () => {
  sb = await startSandbox();
  const made = await fetch(`${sb.url}/v0.1/customers`, {
    method: 'POST',
    headers: { authorization: `Bearer ${sb.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ customer_id: 'cus_saver' }),
  });
  assert.equal(made.status, 201, await made.text());
  h = makeHandler(sb, {
    resolveCheckout(order) {
      const { customer } = order as { customer?: string };
      return {
        ...(CATALOGUE.tea as { amount: number; currency: string }),
        purpose: 'SETUP_RECURRING_PAYMENT',
        ...(customer === undefined ? {} : { customerId: customer }),
      };
    },
  });
});
after(() => sb.close());

const methodsOf = async (query: string) => {
  const res = await h.handle(request('GET', `/payment-methods?${query}`));
  assert.equal(res.status, 200, await res.clone().text());
  const body = (await res.json()) as { available_payment_methods: { id: string }[] };
  return body.available_payment_methods.map((m) => m.id);
};

describe('a checkout made to save the card', () => {
  test('is paid by a card sent with a mandate, which the customer keeps', async () => {
    const created = await h.handle(
      request('POST', '/checkouts', { body: { order: { customer: 'cus_saver' } } }),
    );
    assert.equal(created.status, 201, await created.clone().text());
    const checkout = (await created.json()) as { id: string; purpose?: string };
    // The widget reads the purpose from the public checkout.
    assert.equal(checkout.purpose, 'SETUP_RECURRING_PAYMENT');
    const mandate = { type: 'recurrent' as const, user_agent: 'test' };
    const paid = await h.handle(
      request('PUT', `/checkouts/${checkout.id}`, {
        body: cardBody('4200000000000091', { mandate }),
      }),
    );
    assert.equal(paid.status, 200, await paid.clone().text());
    assert.equal(((await paid.json()) as { status: string }).status, 'PAID');
    const saved = await fetch(`${sb.url}/v0.1/customers/cus_saver/payment-instruments`, {
      headers: { authorization: `Bearer ${sb.apiKey}` },
    });
    const cards = (await saved.json()) as { card: { last_4_digits: string } }[];
    assert.deepEqual(
      cards.map((c) => c.card.last_4_digits),
      ['0091'],
    );
  });

  test('is offered a card alone: GET /payment-methods with its purpose', async () => {
    assert.deepEqual(await methodsOf('currency=EUR&purpose=SETUP_RECURRING_PAYMENT'), ['card']);
    // Any other purpose, or none, is offered all the merchant's methods.
    const all = await methodsOf('currency=EUR');
    assert.ok(all.includes('card') && all.includes('ideal'), all.join(' '));
    assert.deepEqual(await methodsOf('currency=EUR&purpose=CHECKOUT'), all);
    const wrong = await h.handle(request('GET', '/payment-methods?purpose=SAVE'));
    assert.equal(wrong.status, 400);
    const { error } = (await wrong.json()) as { error: { code: string; field?: string } };
    assert.deepEqual([error.code, error.field], ['INVALID', 'purpose']);
  });

  test('without customerId is refused when resolved, by name, and never reaches the provider', async () => {
    const createdBefore = await checkoutsCreated(sb);
    const res = await h.handle(request('POST', '/checkouts', { body: { order: {} } }));
    assert.equal(res.status, 500);
    const { error } = (await res.json()) as { error: { code: string; field?: string } };
    assert.deepEqual([error.code, error.field], ['INVALID_RESOLVED_CHECKOUT', 'customerId']);
    assert.ok(
      h.logs.some(
        (line) => line.includes('SETUP_RECURRING_PAYMENT') && line.includes('customerId'),
      ),
    );
    await assert.rejects(
      h.handle.createCheckout({ amount: 1, currency: 'EUR', purpose: 'SETUP_RECURRING_PAYMENT' }),
      /customer/,
    );
    assert.equal(await checkoutsCreated(sb), createdBefore);
  });

  test('is made anew where the basket’s open checkout is a purchase, and the other way round', async () => {
    // The merchant's page offers "save my card" for the same basket: resolveCheckout turns it
    // into the purpose, and back.
    let purpose: 'CHECKOUT' | 'SETUP_RECURRING_PAYMENT' | undefined;
    const basket = makeHandler(sb, {
      resolveCheckout: () => ({
        ...(CATALOGUE.tea as { amount: number; currency: string }),
        reference: 'basket-saving',
        customerId: 'cus_saver',
        ...(purpose === undefined ? {} : { purpose }),
      }),
    });
    const ask = async () => {
      const res = await basket.handle(request('POST', '/checkouts', { body: { order: {} } }));
      assert.ok(res.status === 200 || res.status === 201, await res.clone().text());
      return (await res.json()) as { id: string; purpose?: string; status: string };
    };
    const purchase = await ask();
    assert.equal(purchase.purpose, 'CHECKOUT');
    purpose = 'SETUP_RECURRING_PAYMENT';
    const saving = await ask();
    assert.equal(saving.purpose, 'SETUP_RECURRING_PAYMENT');
    assert.notEqual(saving.id, purchase.id);
    // The same terms again answer the same checkout; the purchase again, a new one.
    assert.equal((await ask()).id, saving.id);
    purpose = 'CHECKOUT';
    const again = await ask();
    assert.deepEqual([again.purpose, again.id === saving.id], ['CHECKOUT', false]);
    // Each checkout left behind was deactivated: an old tab cannot pay it on the old terms.
    const provider = await fetch(`${sb.url}/v0.1/checkouts/${purchase.id}`, {
      headers: { authorization: `Bearer ${sb.apiKey}` },
    });
    assert.equal(((await provider.json()) as { status: string }).status, 'EXPIRED');
  });
});
