// Payouts over HTTP: generated from settled transactions, with the fee, refund and chargeback
// deductions; the required dates, order, limit, format; the deprecated alias; scopes.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { PayoutListSchema } from '../../../src/schemas/index.ts';
import { checkoutBody, expectValid, type Harness, startSandbox } from '../sandbox/helpers.ts';
import { cardBody } from '../support/cards.ts';
import { assertDeprecated, MERCHANT, paidTransaction, today } from './helpers.ts';

describe('payouts', () => {
  let h: Harness;
  let payment: { id: string; code: string };
  let second: { id: string; code: string };
  const range = () => `start_date=${today()}&end_date=${today()}`;
  const list = (query: string) => h.api('GET', `/v1.0/merchants/${MERCHANT}/payouts?${query}`);

  before(async () => {
    h = await startSandbox({ restrictedKeys: { sk_test_payments: ['payments'] } });
    payment = await paidTransaction(h, { amount: 100 });
    second = await paidTransaction(h, { amount: 20 });
    // A declined payment (amount 11.00) is never paid out.
    const declined = await h.api('POST', '/v0.1/checkouts', checkoutBody({ amount: 11 }));
    const id = (declined.body as { id: string }).id;
    assert.equal(
      (
        (await h.api('PUT', `/v0.1/checkouts/${id}`, cardBody('4200000000000091'))).body as {
          status: string;
        }
      ).status,
      'FAILED',
    );
    assert.equal(
      (await h.api('POST', `/v0.1/me/refund/${payment.id}`, { amount: 30 })).status,
      204,
    );
    const cb = await h.api('POST', `/sandbox/transactions/${payment.id}/chargeback`, {
      amount: 25,
    });
    assert.equal(cb.status, 201, JSON.stringify(cb.body));
  });
  after(() => h.sandbox.close());

  test('a payout per settled payment, net of the fee, and deductions for refunds and chargebacks', async () => {
    const res = await list(range());
    assert.equal(res.status, 200);
    const items = expectValid(PayoutListSchema, res.body);
    const forPayment = items.filter((p) => p.transaction_code === payment.code);
    assert.deepEqual(
      forPayment.map((p) => [p.type, p.amount, p.fee]),
      [
        ['PAYOUT', 98.61, 1.39],
        ['REFUND_DEDUCTION', -30, 0],
        ['CHARGE_BACK_DEDUCTION', -25, 0],
      ],
    );
    const forSecond = items.filter((p) => p.transaction_code === second.code);
    assert.deepEqual(
      forSecond.map((p) => [p.type, p.amount, p.fee]),
      [['PAYOUT', 19.72, 0.28]],
    );
    assert.equal(items.length, 4, 'the declined payment has no payout');
    for (const p of items) {
      assert.equal(p.status, 'SUCCESSFUL');
      assert.equal(p.currency, 'EUR');
      assert.equal(p.date, today());
      assert.equal(p.reference, `${MERCHANT}-${today().replaceAll('-', '')}`);
      assert.ok(Number.isInteger(p.id));
    }
    assert.equal(new Set(items.map((p) => p.id)).size, items.length, 'ids are unique');
  });

  test('start_date and end_date are required ISO dates, end not before start', async () => {
    h.expectError(await list(`end_date=${today()}`), 400, 'MISSING', 'start_date');
    h.expectError(await list(`start_date=${today()}`), 400, 'MISSING', 'end_date');
    h.expectError(
      await list(`start_date=22-11-2026&end_date=${today()}`),
      400,
      'INVALID',
      'start_date',
    );
    h.expectError(
      await list(`start_date=${today()}&end_date=2026-02-30`),
      400,
      'INVALID',
      'end_date',
    );
    h.expectError(
      await list('start_date=2030-01-02&end_date=2030-01-01'),
      400,
      'INVALID',
      'end_date',
    );
    h.expectError(
      await list('start_date=2026-13-01&end_date=2026-12-31'),
      400,
      'INVALID',
      'start_date',
    );
    assert.deepEqual((await list('start_date=2000-01-01&end_date=2000-12-31')).body, []);
  });

  test('order, limit and format', async () => {
    const asc = expectValid(PayoutListSchema, (await list(range())).body);
    const desc = expectValid(PayoutListSchema, (await list(`${range()}&order=desc`)).body);
    assert.deepEqual(
      desc.map((p) => p.id),
      asc.map((p) => p.id).reverse(),
    );
    const limited = expectValid(PayoutListSchema, (await list(`${range()}&limit=2`)).body);
    assert.deepEqual(
      limited.map((p) => p.id),
      asc.slice(0, 2).map((p) => p.id),
    );
    h.expectError(await list(`${range()}&limit=0`), 400, 'INVALID', 'limit');
    h.expectError(await list(`${range()}&limit=two`), 400, 'INVALID', 'limit');
    h.expectError(await list(`${range()}&order=newest`), 400, 'INVALID', 'order');
    h.expectError(await list(`${range()}&format=xml`), 400, 'INVALID', 'format');

    const csv = await list(`${range()}&format=csv`);
    assert.equal(csv.status, 200);
    assert.match(csv.headers.get('content-type') ?? '', /^text\/csv/);
    const lines = String(csv.body).trim().split('\r\n');
    assert.equal(lines[0], 'id,date,type,status,amount,fee,currency,reference,transaction_code');
    assert.equal(lines.length, asc.length + 1);
    assert.ok(lines.some((l) => l.includes(`,REFUND_DEDUCTION,SUCCESSFUL,-30,0,EUR,`)));
  });

  test('the deprecated v0.1 alias answers the same, with Deprecation and Link', async () => {
    const v10 = await list(range());
    const v01 = await h.api('GET', `/v0.1/me/financials/payouts?${range()}`);
    assert.equal(v01.status, 200);
    assert.deepEqual(v01.body, v10.body);
    assertDeprecated(v01, `/v1.0/merchants/${MERCHANT}/payouts?${range()}`);
    h.expectError(await h.api('GET', '/v0.1/me/financials/payouts'), 400, 'MISSING', 'start_date');
  });

  test('other merchant 404, wrong scope 403, no key 401', async () => {
    h.expectError(
      await h.api('GET', `/v1.0/merchants/MOTHER/payouts?${range()}`),
      404,
      'NOT_FOUND',
    );
    assert.equal(
      (
        await h.api(
          'GET',
          `/v1.0/merchants/${MERCHANT}/payouts?${range()}`,
          undefined,
          'sk_test_payments',
        )
      ).status,
      403,
    );
    assert.equal(
      (await h.api('GET', `/v1.0/merchants/${MERCHANT}/payouts?${range()}`, undefined, null))
        .status,
      401,
    );
  });

  test('the chargeback control route refuses more than is left, and unknown transactions', async () => {
    h.expectError(
      await h.api('POST', `/sandbox/transactions/${second.id}/chargeback`, { amount: 20.01 }),
      400,
      'INVALID',
      'amount',
    );
    h.expectError(
      await h.api('POST', '/sandbox/transactions/nope/chargeback', {}),
      404,
      'NOT_FOUND',
    );
    h.expectError(
      await h.api('POST', `/sandbox/transactions/${second.id}/chargeback`, { amount: -1 }),
      400,
      'INVALID',
      'amount',
    );
  });
});
