// Receipts over HTTP: built from the transaction (products, events, acquirer data), mid
// required, tx_event_id selecting a refund, the chosen scope and the not-found answers.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ReceiptSchema, TransactionFullSchema } from '../../../src/schemas/index.ts';
import { expectValid, type Harness, startSandbox } from '../sandbox/helpers.ts';
import { MERCHANT, paidTransaction } from './helpers.ts';

describe('receipts', () => {
  let h: Harness;
  let payment: { id: string; code: string };
  before(async () => {
    h = await startSandbox({
      restrictedKeys: { sk_test_history: ['transactions.history'], sk_test_payments: ['payments'] },
    });
    payment = await paidTransaction(h, { amount: 25.5, description: 'Two coffees' });
  });
  after(() => h.sandbox.close());

  test('a receipt by transaction id and by transaction code, built from the transaction', async () => {
    const res = await h.api('GET', `/v1.1/receipts/${payment.id}?mid=${MERCHANT}`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const receipt = expectValid(ReceiptSchema, res.body);
    const txn = expectValid(
      TransactionFullSchema,
      (await h.api('GET', `/v2.1/merchants/${MERCHANT}/transactions?id=${payment.id}`)).body,
    );
    const data = receipt.transaction_data!;
    assert.equal(data.transaction_code, payment.code);
    assert.equal(data.amount, '25.50');
    assert.equal(data.vat_amount, '0.00');
    assert.equal(data.tip_amount, '0.00');
    assert.equal(data.currency, 'EUR');
    assert.equal(data.status, 'SUCCESSFUL');
    assert.deepEqual(data.card, { last_4_digits: '0091', type: 'VISA' });
    assert.deepEqual(data.products, [
      { name: 'Two coffees', price: 25.5, quantity: 1, total_price: 25.5 },
    ]);
    assert.deepEqual(data.events, []);
    assert.equal(receipt.acquirer_data?.authorization_code, txn.auth_code);
    assert.equal(receipt.acquirer_data?.return_code, '00');
    assert.match(receipt.acquirer_data?.tid ?? '', /^\d{8}$/);
    assert.equal(receipt.merchant_data?.merchant_profile?.business_name, 'Sandbox Merchant');
    assert.equal(receipt.merchant_data?.merchant_profile?.address?.country_en_name, 'Germany');
    assert.equal(receipt.merchant_data?.locale, 'de-DE');

    const byCode = await h.api('GET', `/v1.1/receipts/${payment.code}?mid=${MERCHANT}`);
    assert.deepEqual(byCode.body, res.body);
  });

  test('tx_event_id selects one refund event and its receipt number', async () => {
    assert.equal((await h.api('POST', `/v0.1/me/refund/${payment.id}`, { amount: 5 })).status, 204);
    assert.equal((await h.api('POST', `/v0.1/me/refund/${payment.id}`, { amount: 2 })).status, 204);
    const all = expectValid(
      ReceiptSchema,
      (await h.api('GET', `/v1.1/receipts/${payment.id}?mid=${MERCHANT}`)).body,
    );
    const events = all.transaction_data?.events ?? [];
    assert.deepEqual(
      events.map((e) => [e.type, e.amount]),
      [
        ['REFUND', 5],
        ['REFUND', 2],
      ],
    );
    const second = events[1]!;
    const one = expectValid(
      ReceiptSchema,
      (await h.api('GET', `/v1.1/receipts/${payment.id}?mid=${MERCHANT}&tx_event_id=${second.id}`))
        .body,
    );
    assert.deepEqual(
      one.transaction_data?.events?.map((e) => e.id),
      [second.id],
    );
    assert.equal(one.transaction_data?.receipt_no, second.receipt_no);
    assert.notEqual(one.transaction_data?.receipt_no, all.transaction_data?.receipt_no);
  });

  test('mid is required; wrong mid, unknown id or event answer 400 NOT_FOUND', async () => {
    h.expectError(await h.api('GET', `/v1.1/receipts/${payment.id}`), 400, 'MISSING', 'mid');
    h.expectError(await h.api('GET', `/v1.1/receipts/${payment.id}?mid=MOTHER`), 400, 'NOT_FOUND');
    h.expectError(await h.api('GET', `/v1.1/receipts/TNOPE?mid=${MERCHANT}`), 400, 'NOT_FOUND');
    h.expectError(
      await h.api('GET', `/v1.1/receipts/${payment.id}?mid=${MERCHANT}&tx_event_id=999999`),
      400,
      'NOT_FOUND',
    );
    h.expectError(
      await h.api('GET', `/v1.1/receipts/${payment.id}?mid=${MERCHANT}&tx_event_id=first`),
      400,
      'INVALID',
      'tx_event_id',
    );
  });

  test('amounts use the currency decimals: HUF has none', async () => {
    const huf = await paidTransaction(h, { amount: 1500, currency: 'HUF' });
    const receipt = expectValid(
      ReceiptSchema,
      (await h.api('GET', `/v1.1/receipts/${huf.id}?mid=${MERCHANT}`)).body,
    );
    assert.equal(receipt.transaction_data?.amount, '1500');
  });

  test('scope: transactions.history (the sandbox choice); payments alone is refused', async () => {
    const path = `/v1.1/receipts/${payment.id}?mid=${MERCHANT}`;
    assert.equal((await h.api('GET', path, undefined, 'sk_test_history')).status, 200);
    assert.equal((await h.api('GET', path, undefined, 'sk_test_payments')).status, 403);
    assert.equal((await h.api('GET', path, undefined, null)).status, 401);
  });
});
