import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  CheckoutSchema,
  TransactionFullSchema,
  TransactionHistoryResponseSchema,
} from '../../../src/schemas/index.ts';
import { cardBody } from '../support/cards.ts';
import { checkoutBody, expectValid, type Harness, startSandbox } from './helpers.ts';

let h: Harness;
before(async () => {
  h = await startSandbox();
});
after(() => h.sandbox.close());

async function pay(amount = 10, number = '4200000000000091', currency = 'EUR') {
  const c = expectValid(
    CheckoutSchema,
    (
      await h.api(
        'POST',
        '/v0.1/checkouts',
        checkoutBody({ amount, currency, description: `item ${amount}` }),
      )
    ).body,
  );
  const res = await h.api('PUT', `/v0.1/checkouts/${c.id}`, cardBody(number));
  const txn = expectValid(CheckoutSchema, res.body).transactions?.[0];
  assert.ok(txn?.id && txn.transaction_code && txn.internal_id);
  return txn as { id: string; transaction_code: string; internal_id: number };
}

async function full(query: string, path = '/v2.1/merchants/MSANDBOX1/transactions') {
  const res = await h.api('GET', `${path}?${query}`);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return expectValid(TransactionFullSchema, res.body);
}

async function history(query = '', path = '/v2.1/merchants/MSANDBOX1/transactions/history') {
  const res = await h.api('GET', `${path}?${query}`);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return expectValid(TransactionHistoryResponseSchema, res.body);
}

describe('retrieve', () => {
  test('by id, internal_id and transaction_code, on v2.1 and the deprecated v0.1', async () => {
    const t = await pay(12.5);
    for (const q of [
      `id=${t.id}`,
      `internal_id=${t.internal_id}`,
      `transaction_code=${t.transaction_code}`,
    ]) {
      const a = await full(q);
      assert.equal(a.id, t.id);
      assert.equal(a.amount, 12.5);
      assert.equal(a.product_summary, 'item 12.5');
      assert.equal(a.simple_status, 'SUCCESSFUL');
      assert.equal(a.username, 'merchant@example.com');
      const b = await full(q, '/v0.1/me/transactions');
      assert.equal(b.id, t.id);
    }
  });

  test('no identifier is 400 MISSING; unknown is 404; another merchant is 404', async () => {
    h.expectError(
      await h.api('GET', '/v2.1/merchants/MSANDBOX1/transactions'),
      400,
      'MISSING',
      'id',
    );
    h.expectError(await h.api('GET', '/v0.1/me/transactions'), 400, 'MISSING', 'id');
    h.expectError(
      await h.api('GET', '/v2.1/merchants/MSANDBOX1/transactions?id=nope'),
      404,
      'NOT_FOUND',
    );
    h.expectError(
      await h.api('GET', '/v2.1/merchants/MOTHER/transactions?id=nope'),
      404,
      'NOT_FOUND',
    );
  });
});

/** Each of `amounts` refunded from payment `id` is a 400 naming amount. */
async function refusesAmounts(id: string, amounts: number[]) {
  for (const amount of amounts) {
    h.expectError(
      await h.api('POST', `/v0.1/me/refund/${id}`, { amount }),
      400,
      'INVALID',
      'amount',
    );
  }
}

/** A refund without an amount takes what is left: the payment is REFUNDED, its refunds `events`. */
async function refundsTheRest(id: string, events: number[]) {
  assert.equal((await h.api('POST', `/v0.1/me/refund/${id}`)).status, 204);
  const refunded = await full(`id=${id}`);
  assert.equal(refunded.simple_status, 'REFUNDED');
  assert.deepEqual(
    refunded.events?.map((e) => e.amount),
    events,
  );
  return refunded;
}

describe('refunds', () => {
  test('partial then full refund: events, simple_status, refund link and REFUND history items', async () => {
    const t = await pay(20);
    const before = await full(`id=${t.id}`);
    assert.deepEqual(
      before.links?.map((l) => [l.rel, l.max_amount]),
      [['refund', 20]],
    );
    assert.equal((await h.api('POST', `/v0.1/me/refund/${t.id}`, { amount: 5 })).status, 204);
    const partial = await full(`id=${t.id}`);
    assert.equal(partial.status, 'SUCCESSFUL');
    assert.equal(partial.simple_status, 'SUCCESSFUL');
    assert.equal(partial.events?.length, 1);
    assert.equal(partial.events?.[0]?.type, 'REFUND');
    assert.equal(partial.events?.[0]?.amount, 5);
    assert.equal(partial.transaction_events?.[0]?.event_type, 'REFUND');
    assert.equal(partial.links?.[0]?.max_amount, 15);

    await refusesAmounts(t.id, [15.01, -1]);
    const refunded = await refundsTheRest(t.id, [5, 15]);
    assert.deepEqual(refunded.links, []);
    h.expectError(await h.api('POST', `/v0.1/me/refund/${t.id}`, { amount: 1 }), 409, 'CONFLICT');

    const refunds = await history('types=REFUND&limit=100');
    const mine = refunds.items.filter((i) => i.product_summary === 'item 20');
    assert.deepEqual(
      mine.map((i) => [i.type, i.amount]),
      [
        ['REFUND', 5],
        ['REFUND', 15],
      ],
    );
    const fully = await history('statuses=REFUNDED&limit=100');
    assert.ok(fully.items.some((i) => i.id === t.id));
  });

  test('a dinar payment is refunded to the fils (three decimals), never rounded to cents', async () => {
    const t = await pay(5.125, undefined, 'KWD');
    assert.equal((await h.api('POST', `/v0.1/me/refund/${t.id}`, { amount: 1.001 })).status, 204);
    assert.equal((await full(`id=${t.id}`)).links?.[0]?.max_amount, 4.124);
    // The least a refund can be is one fils (one yen below); it said 0.01 whatever the currency.
    assert.equal((await full(`id=${t.id}`)).links?.[0]?.min_amount, 0.001);
    const yen = await pay(1500, undefined, 'JPY');
    assert.equal((await full(`id=${yen.id}`)).links?.[0]?.min_amount, 1);
    await refusesAmounts(t.id, [4.125, 0.0005]);
    await refundsTheRest(t.id, [1.001, 4.124]);
  });

  test('a dinar payment is charged back to the fils: a fraction of one, or more than is open, refused naming amount', async () => {
    const t = await pay(5.125, undefined, 'KWD');
    const chargeBack = (amount: number) =>
      h.api('POST', `/sandbox/transactions/${t.id}/chargeback`, { amount });
    // Before: 0.0005 KWD was taken (201), and "more than is open" named 5.13.
    h.expectError(await chargeBack(0.0005), 400, 'INVALID', 'amount');
    assert.equal((await chargeBack(1.001)).status, 201);
    const over = await chargeBack(4.125);
    h.expectError(over, 400, 'INVALID', 'amount');
    assert.match((over.body as { message: string }).message, /the 4\.124 not yet charged back/);
    assert.equal((await chargeBack(4.124)).status, 201);
  });

  test('a failed payment is not refundable (409); unknown is 404', async () => {
    const t = await pay(11);
    h.expectError(await h.api('POST', `/v0.1/me/refund/${t.id}`), 409, 'CONFLICT');
    h.expectError(await h.api('POST', '/v0.1/me/refund/nope'), 404, 'NOT_FOUND');
  });
});

describe('history', () => {
  test('filters, order and links paging across every item exactly once', async () => {
    h.sandbox.reset();
    const paid = [await pay(1), await pay(2), await pay(3), await pay(4), await pay(5)];
    const failed = await pay(11);
    const all = await history('limit=100');
    assert.deepEqual(
      all.items.map((i) => i.id),
      [...paid, failed].map((t) => t.id),
    );
    assert.deepEqual(all.links, []);
    const desc = await history('order=descending&limit=100');
    assert.deepEqual(
      desc.items.map((i) => i.id),
      [...all.items.map((i) => i.id)].reverse(),
    );
    assert.deepEqual(
      (await history('statuses=FAILED')).items.map((i) => i.id),
      [failed.id],
    );
    assert.deepEqual(
      (await history('statuses[]=FAILED&statuses[]=SUCCESSFUL&limit=100')).items.length,
      6,
    );
    assert.equal((await history('payment_types=BOLETO')).items.length, 0);
    assert.equal((await history('payment_types=ECOM&types=PAYMENT&limit=100')).items.length, 6);
    assert.equal((await history('users=merchant@example.com&limit=100')).items.length, 6);
    assert.equal((await history('users=someone@example.com')).items.length, 0);
    assert.deepEqual(
      (await history(`transaction_code=${paid[2]!.transaction_code}`)).items.map((i) => i.id),
      [paid[2]!.id],
    );
    assert.deepEqual(
      (await history(`oldest_ref=${paid[3]!.internal_id}`)).items.map((i) => i.id),
      [paid[4]!.id, failed.id],
    );
    assert.deepEqual(
      (await history(`newest_ref=${paid[1]!.internal_id}`)).items.map((i) => i.id),
      [paid[0]!.id],
    );
    const future = new Date(Date.now() + 60_000).toISOString();
    assert.equal((await history(`oldest_time=${future}`)).items.length, 0);
    assert.equal((await history(`newest_time=${future}&limit=100`)).items.length, 6);
    assert.equal((await history(`changes_since=${future}`)).items.length, 0);

    for (const order of ['ascending', 'descending']) {
      const seen: string[] = [];
      let page = await history(`limit=2&order=${order}`, '/v0.1/me/transactions/history');
      seen.push(...page.items.map((i) => i.id!));
      let pages = 1;
      while (page.links?.[0]) {
        const next = new URL(page.links[0].href!);
        assert.equal(page.links[0].rel, 'next');
        page = await history(next.search.slice(1), next.pathname);
        seen.push(...page.items.map((i) => i.id!));
        pages += 1;
      }
      assert.equal(pages, 3);
      const expected = all.items.map((i) => i.id!);
      assert.deepEqual(seen, order === 'ascending' ? expected : [...expected].reverse());
    }
  });

  test('bad filters are 400 INVALID naming the parameter', async () => {
    for (const [q, param] of [
      ['limit=0', 'limit'],
      ['limit=ten', 'limit'],
      ['order=sideways', 'order'],
      ['statuses=LOST', 'statuses'],
      ['types=GIFT', 'types'],
      ['payment_types=CHEQUE', 'payment_types'],
      ['changes_since=yesterday', 'changes_since'],
      ['oldest_ref=abc', 'oldest_ref'],
    ] as const) {
      h.expectError(
        await h.api('GET', `/v2.1/merchants/MSANDBOX1/transactions/history?${q}`),
        400,
        'INVALID',
        param,
      );
    }
  });
});
