// One checkout per basket, through the handler and a real sandbox: a reload answers the
// basket's open or paid checkout, a changed amount retires the old one, a failure makes the
// next, instances racing on one basket make one, and a basket is never charged twice.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Sandbox } from '../../../src/sandbox/index.ts';
import type { RequestJson } from '../../../src/sandbox/state/request-log.ts';
import type { Checkout } from '../../../src/schemas/index.ts';
import {
  createMemoryStore,
  createProviderClient,
  type PaymentStore,
  type ResolvedCheckout,
} from '../../../src/server/index.ts';
import { until } from '../../shared/until.ts';
import { cardBody } from '../support/cards.ts';
import { countingFetch } from '../support/clients.ts';
import { type Harness, makeHandler, request, startSandbox, webhookRequest } from './fixtures.ts';

let sb: Sandbox;
before(async () => {
  sb = await startSandbox();
});
after(async () => {
  await sb.close();
});

interface Order {
  basket: string;
  amount?: number;
  currency?: string;
}

/** The shop prices the basket on the server and names it as the checkout's reference. */
function shop(store: PaymentStore = createMemoryStore()): Harness {
  return makeHandler(sb, {
    store,
    resolveCheckout(order): ResolvedCheckout {
      const { basket, amount = 10, currency = 'EUR' } = order as Order;
      return { reference: basket, amount, currency, redirect: false };
    },
  });
}

let baskets = 0;
const fresh = () => {
  baskets += 1;
  return `basket-${process.pid}-${baskets}`;
};

async function post(h: Harness, order: Order) {
  const res = await h.handle(request('POST', '/checkouts', { body: { order } }));
  return { status: res.status, checkout: (await res.json()) as Checkout & { id: string } };
}

async function pay(h: Harness, id: string, card = '4200000000000091') {
  const res = await h.handle(request('PUT', `/checkouts/${id}`, { body: cardBody(card) }));
  return {
    status: res.status,
    body: (await res.json()) as { status?: string; error?: { code: string } },
  };
}

const provider = () => createProviderClient({ baseUrl: sb.url, apiKey: sb.apiKey });

/** The sandbox's request log: what the provider was asked, newest first. */
async function sandboxRequests(): Promise<RequestJson[]> {
  const res = await fetch(`${sb.url}/sandbox/requests`, {
    headers: { authorization: `Bearer ${sb.apiKey}` },
  });
  return (await res.json()) as RequestJson[];
}

describe('one checkout per basket', () => {
  test('a second request for an unchanged basket answers its open checkout, 200 not 201', async () => {
    const h = shop();
    const basket = fresh();
    const first = await post(h, { basket });
    const again = await post(h, { basket });
    assert.equal(first.status, 201);
    assert.equal(again.status, 200);
    assert.equal(again.checkout.id, first.checkout.id);
    assert.equal(first.checkout.checkout_reference, basket);
  });

  test('a paid basket answers its paid checkout, never a new one to pay', async () => {
    const h = shop();
    const basket = fresh();
    const { checkout } = await post(h, { basket });
    assert.equal((await pay(h, checkout.id)).body.status, 'PAID');
    const reload = await post(h, { basket });
    assert.equal(reload.status, 200);
    assert.equal(reload.checkout.id, checkout.id);
    assert.equal(reload.checkout.status, 'PAID');
    const listed = await provider().checkouts.list({ checkout_reference: `${basket}~2` });
    assert.deepEqual(listed, [], 'no second checkout was made');
  });

  test('a changed amount retires the open checkout, and the old tab cannot pay it', async () => {
    const h = shop();
    const basket = fresh();
    const old = (await post(h, { basket, amount: 10 })).checkout;
    const changed = await post(h, { basket, amount: 12.5 });
    assert.equal(changed.status, 201);
    assert.notEqual(changed.checkout.id, old.id);
    assert.equal(changed.checkout.amount, 12.5);
    assert.equal(changed.checkout.checkout_reference, `${basket}~2`);
    assert.equal((await provider().checkouts.get(old.id)).status, 'EXPIRED');
    const stale = await pay(h, old.id);
    assert.equal(stale.status, 409);
    assert.equal((await provider().checkouts.get(old.id)).status, 'EXPIRED');
  });

  test('a change in the third decimal of a dinar is a changed amount: the fils are charged as priced', async () => {
    const h = shop();
    const basket = fresh();
    const old = (await post(h, { basket, amount: 5.125, currency: 'KWD' })).checkout;
    const changed = await post(h, { basket, amount: 5.126, currency: 'KWD' });
    assert.equal(changed.status, 201);
    assert.notEqual(changed.checkout.id, old.id);
    assert.equal(changed.checkout.amount, 5.126);
    // Unchanged to the fils, it is the same checkout.
    const again = await post(h, { basket, amount: 5.126, currency: 'KWD' });
    assert.equal(again.status, 200);
    assert.equal(again.checkout.id, changed.checkout.id);
  });

  test('an order resolveCheckout cannot price is refused with the open checkout left payable', async () => {
    const h = shop();
    const basket = fresh();
    const open = (await post(h, { basket })).checkout;
    const refused = await post(h, { basket, amount: -1 });
    assert.equal(refused.status, 500);
    assert.equal((await provider().checkouts.get(open.id)).status, 'PENDING');
    assert.equal((await pay(h, open.id)).status, 200);
  });

  test('after a decline the basket gets its next checkout; the amount stays the server’s', async () => {
    const h = shop();
    const basket = fresh();
    // 11.00 is declined whatever the card.
    const declined = (await post(h, { basket, amount: 11 })).checkout;
    assert.equal((await pay(h, declined.id)).body.status, 'FAILED');
    const next = await post(h, { basket, amount: 11 });
    assert.equal(next.status, 201);
    assert.equal(next.checkout.checkout_reference, `${basket}~2`);
    assert.equal(next.checkout.amount, 11);
  });

  test('twelve requests at once for one basket on two instances sharing a store: one checkout', async () => {
    const store = createMemoryStore();
    const [a, b] = [shop(store), shop(store)];
    const basket = fresh();
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => post(i % 2 === 0 ? a : b, { basket })),
    );
    assert.equal(new Set(answers.map((x) => x.checkout.id)).size, 1);
    assert.equal(answers.filter((x) => x.status === 201).length, 1);
  });

  test('with stores that share nothing, the provider still makes it one checkout', async () => {
    const [a, b] = [shop(createMemoryStore()), shop(createMemoryStore())];
    const basket = fresh();
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => post(i % 2 === 0 ? a : b, { basket, amount: 20 })),
    );
    assert.equal(new Set(answers.map((x) => x.checkout.id)).size, 1);
    // And a change seen by the other instance moves the basket on once.
    const changed = await Promise.all([
      post(a, { basket, amount: 21 }),
      post(b, { basket, amount: 21 }),
    ]);
    assert.equal(changed[0].checkout.id, changed[1].checkout.id);
    assert.equal(changed[0].checkout.checkout_reference, `${basket}~2`);
  });

  test('a store that keeps only claims (no records) still gives one checkout per basket', async () => {
    const memory = createMemoryStore();
    const claimsOnly: PaymentStore = {
      claim: memory.claim,
      complete: memory.complete,
      release: memory.release,
    };
    const h = shop(claimsOnly);
    const basket = fresh();
    const first = await post(h, { basket });
    const again = await post(h, { basket });
    assert.equal(again.checkout.id, first.checkout.id);
  });

  test('a reference the handler cannot use for a basket is the merchant’s error, named in the log', async () => {
    const h = shop();
    const { status, checkout } = await post(h, { basket: 'order-7~2' });
    assert.equal(status, 500);
    assert.equal(
      (checkout as unknown as { error: { code: string } }).error.code,
      'INVALID_RESOLVED_CHECKOUT',
    );
    assert.ok(h.logs.some((line) => line.includes('reference') && line.includes('~')));
  });
});

describe('POST /checkouts/:id/retry', () => {
  test('after a failed payment: a new checkout for the same basket and amount', async () => {
    const h = shop();
    const basket = fresh();
    const failed = (await post(h, { basket, amount: 42.5 })).checkout;
    // A card that fails (a 3DS technical error), whatever the amount.
    assert.equal((await pay(h, failed.id, '4012001037461114')).body.status, 'FAILED');
    const res = await h.handle(request('POST', `/checkouts/${failed.id}/retry`));
    assert.equal(res.status, 201);
    const next = (await res.json()) as Checkout;
    assert.equal(next.amount, 42.5);
    assert.equal(next.currency, 'EUR');
    assert.equal(next.checkout_reference, `${basket}~2`);
    assert.equal(next.status, 'PENDING');
    assert.equal(next.redirect_url, undefined, 'made like the failed one: no redirect_url');
    // Paid on the next card: the basket is paid once, and a reload answers that.
    assert.equal((await pay(h, String(next.id))).body.status, 'PAID');
    assert.equal((await post(h, { basket, amount: 42.5 })).checkout.id, next.id);
  });

  test('a retry of a paid checkout answers the paid one; of an open one, 409', async () => {
    const h = shop();
    const open = (await post(h, { basket: fresh() })).checkout;
    const busy = await h.handle(request('POST', `/checkouts/${open.id}/retry`));
    assert.equal(busy.status, 409);
    assert.equal(((await busy.json()) as { error: { code: string } }).error.code, 'CONFLICT');
    await pay(h, open.id);
    const paid = await h.handle(request('POST', `/checkouts/${open.id}/retry`));
    assert.equal(paid.status, 200);
    assert.equal(((await paid.json()) as Checkout).id, open.id);
  });

  test('two tabs retrying one failed checkout get one next checkout', async () => {
    const h = shop();
    const failed = (await post(h, { basket: fresh(), amount: 11 })).checkout;
    await pay(h, failed.id);
    const both = await Promise.all([
      h.handle(request('POST', `/checkouts/${failed.id}/retry`)),
      h.handle(request('POST', `/checkouts/${failed.id}/retry`)),
    ]);
    const answers = await Promise.all(
      both.map(async (r) => ({ status: r.status, checkout: (await r.json()) as Checkout })),
    );
    // One tab made the next checkout, the other was answered with it.
    assert.deepEqual(answers.map((a) => a.status).sort(), [200, 201]);
    const [first, second] = answers.map((a) => a.checkout);
    assert.ok(first?.id, 'the retry answered a checkout');
    assert.equal(second?.id, first.id);
    assert.notEqual(first.id, failed.id);
    assert.equal(first.status, 'PENDING');
    assert.equal(first.checkout_reference, `${failed.checkout_reference}~2`);
    // And the provider has that one next checkout for the basket, no other.
    const next = await provider().checkouts.list({
      checkout_reference: `${failed.checkout_reference}~2`,
    });
    assert.deepEqual(
      next.map((c) => c.id),
      [first.id],
    );
  });

  test('a retry from an old tab, after the basket moved on, answers the basket’s current checkout', async () => {
    const h = shop();
    const basket = fresh();
    const failed = (await post(h, { basket, amount: 15 })).checkout;
    await pay(h, failed.id, '4012001037461114');
    // The other tab changed the basket: a new checkout for the new amount.
    const current = (await post(h, { basket, amount: 16 })).checkout;
    const res = await h.handle(request('POST', `/checkouts/${failed.id}/retry`));
    assert.equal(res.status, 200);
    const answered = (await res.json()) as Checkout;
    assert.equal(answered.id, current.id);
    assert.equal(answered.amount, 16, 'never the old amount again');
  });

  test('bad input: an unknown checkout is 404, a foreign Origin 403, a bad id 400', async () => {
    const h = shop();
    assert.equal(
      (await h.handle(request('POST', '/checkouts/no-such-checkout/retry'))).status,
      404,
    );
    const foreign = await h.handle(
      request('POST', '/checkouts/abc/retry', { origin: 'https://evil.example' }),
    );
    assert.equal(foreign.status, 403);
    assert.equal((await h.handle(request('POST', '/checkouts/a%20b/retry'))).status, 400);
  });

  test('retries that make checkouts are held by the card-testing limits before the provider; one that finds the basket’s checkout counts nothing', async () => {
    const counted = countingFetch();
    const h = makeHandler(sb, {
      provider: { fetch: counted.fetch },
      rateLimit: { checkoutsPerClient: { limit: 3 }, clientAddress: () => '192.0.2.7' },
      // Every payment of 11.00 is declined: a bot testing cards retries after each.
      resolveCheckout: (order) => ({
        reference: (order as Order).basket,
        amount: 11,
        currency: 'EUR',
        redirect: false,
      }),
    });
    const creates = () => counted.calls.filter((c) => c === 'POST /v0.1/checkouts').length;
    const retry = async (id: string) => {
      const res = await h.handle(request('POST', `/checkouts/${id}/retry`));
      return { status: res.status, id: ((await res.json()) as { id?: string }).id };
    };
    const first = (await post(h, { basket: fresh() })).checkout.id;
    await pay(h, first);
    const second = await retry(first);
    assert.equal(second.status, 201);
    // Another tab retrying the same failed checkout finds the basket's next one.
    assert.deepEqual(await retry(first), { status: 200, id: second.id });
    await pay(h, second.id as string);
    const third = await retry(second.id as string);
    assert.equal(third.status, 201);
    await pay(h, third.id as string);
    const made = creates();
    assert.equal(made, 3);
    assert.equal((await retry(third.id as string)).status, 429);
    assert.equal(creates(), made, 'the refused retry never reached the provider’s create');
    // An unknown checkout is the provider's 404, whatever the count.
    assert.equal((await retry('no-such-checkout')).status, 404);
  });
});

describe('a basket is never charged twice', () => {
  test('a stale checkout paid late (a boleto issued before the basket changed) is refunded', async () => {
    const h = makeHandler(sb, {
      resolveCheckout: (order) => ({
        reference: (order as Order).basket,
        amount: (order as Order).amount ?? 10,
        currency: 'BRL',
        redirect: false,
      }),
    });
    const basket = fresh();
    const boleto = (await post(h, { basket, amount: 30 })).checkout;
    const issued = await h.handle(
      request('PUT', `/checkouts/${boleto.id}`, {
        body: { payment_type: 'boleto' },
      }),
    );
    assert.equal(issued.status, 200, await issued.clone().text());
    // The basket changes: the boleto cannot be deactivated (it is issued), so it is watched.
    const card = (await post(h, { basket, amount: 31 })).checkout;
    assert.notEqual(card.id, boleto.id);
    assert.equal((await pay(h, card.id)).body.status, 'PAID');
    await h.handle(request('GET', `/checkouts/${card.id}`));
    // The shopper pays the old boleto anyway, days later.
    const settled = await fetch(`${sb.url}/sandbox/checkouts/${boleto.id}/settle`, {
      method: 'POST',
      headers: { authorization: `Bearer ${sb.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ status: 'PAID' }),
    });
    assert.equal(settled.status, 200);
    const webhook = await h.handle(webhookRequest(boleto.id));
    assert.equal(webhook.status, 204);
    await until(
      () => `onPaid of the card payment; log: ${h.logs.join('\n')}`,
      () => h.paid.length === 1,
    );
    assert.deepEqual(
      h.paid.map((c) => c.id),
      [card.id],
      'onPaid ran for the basket’s first payment only',
    );
    const refunded = await provider().transactions.get(sb.merchantCode, {
      id: String((await provider().checkouts.get(boleto.id)).transaction_id),
    });
    assert.equal(refunded.simple_status, 'REFUNDED');
    const entry = h.logs
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .find((e) => e.event === 'duplicate-payment-refunded');
    assert.equal(entry?.checkoutId, boleto.id);
    assert.equal(entry?.paidCheckoutId, card.id);
    // Reported again (the webhook answers once its report is done): refunded once, never twice.
    assert.equal((await h.handle(webhookRequest(boleto.id))).status, 204);
    const refundCalls = (await sandboxRequests()).filter(
      (r) => r.method === 'POST' && r.path === `/v0.1/me/refund/${refunded.id}`,
    );
    assert.equal(refundCalls.length, 1, 'one refund asked of the provider');
    assert.equal(
      h.logs.filter((l) => l.includes('"duplicate-payment-refunded"')).length,
      1,
      'one refund reported',
    );
    assert.deepEqual(
      h.paid.map((c) => c.id),
      [card.id],
    );
  });
});
