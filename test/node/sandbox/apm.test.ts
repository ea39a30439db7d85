import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { CheckoutSchema, ProcessAcceptedSchema } from '../../../src/schemas/index.ts';
import { checkoutBody, expectValid, type Harness, postForm, startSandbox } from './helpers.ts';

let h: Harness;
before(async () => {
  h = await startSandbox();
});
after(() => h.sandbox.close());

const CURRENCY = { ideal: 'EUR', bancontact: 'EUR', blik: 'PLN' } as const;

async function create(extra: Record<string, unknown>) {
  const res = await h.api('POST', '/v0.1/checkouts', checkoutBody(extra));
  assert.equal(res.status, 201);
  return expectValid(CheckoutSchema, res.body);
}

describe('bank APMs', () => {
  for (const method of ['ideal', 'bancontact', 'blik'] as const) {
    test(`${method} without redirect_url is 400 MISSING redirect_url`, async () => {
      const c = await create({ currency: CURRENCY[method] });
      h.expectError(
        await h.api('PUT', `/v0.1/checkouts/${c.id}`, { payment_type: method }),
        400,
        'MISSING',
        'redirect_url',
      );
    });

    for (const [choice, outcome] of [
      ['approve', 'PAID'],
      ['decline', 'FAILED'],
    ] as const) {
      test(`${method}: the bank page's ${choice} -> ${outcome}, then 303 to redirect_url`, async () => {
        const c = await create({
          currency: CURRENCY[method],
          redirect_url: 'https://shop.example/return',
        });
        const res = await h.api('PUT', `/v0.1/checkouts/${c.id}`, { payment_type: method });
        assert.equal(res.status, 202);
        const step = expectValid(ProcessAcceptedSchema, res.body).next_step;
        assert.equal(step.redirect_url, 'https://shop.example/return');
        assert.ok(step.full?.startsWith(`${h.sandbox.url}/sandbox/bank/${method}/${c.id}?`));
        const page = await fetch(step.full!);
        assert.equal(page.status, 200);
        const html = await page.text();
        assert.match(html, />Approve payment<\/button>/);
        assert.match(html, />Decline payment<\/button>/);
        assert.match(html, /<html lang="en">/);
        const done = await postForm(step.url, { tx: step.payload!.tx!, result: choice });
        assert.equal(done.status, 303);
        assert.equal(
          done.headers.get('location'),
          `https://shop.example/return?checkout_id=${c.id}`,
        );
        const after = expectValid(
          CheckoutSchema,
          (await h.api('GET', `/v0.1/checkouts/${c.id}`)).body,
        );
        assert.equal(after.status, outcome);
        assert.equal(after.transactions?.length, 1);
        h.expectError(
          await h.api('PUT', `/v0.1/checkouts/${c.id}`, { payment_type: method }),
          409,
          'CHECKOUT_PROCESSED',
        );
      });
    }
  }

  test('the bank page refuses a forged tx; an APM is refused for a currency it does not settle', async () => {
    const c = await create({ redirect_url: 'https://shop.example/return' });
    const res = await h.api('PUT', `/v0.1/checkouts/${c.id}`, { payment_type: 'ideal' });
    const step = expectValid(ProcessAcceptedSchema, res.body).next_step;
    assert.equal((await fetch(`${step.url}?tx=forged`)).status, 400);
    const forged = await postForm(step.url, { tx: 'forged', result: 'approve' });
    assert.equal(forged.status, 400);
    assert.equal(JSON.parse(forged.text).param, 'tx');
    const bad = await postForm(step.url, { tx: step.payload!.tx!, result: 'maybe' });
    assert.equal(JSON.parse(bad.text).param, 'result');
    h.expectError(
      await h.api('PUT', `/v0.1/checkouts/${c.id}`, { payment_type: 'blik' }),
      400,
      'INVALID',
      'payment_type',
    );
  });

  test('a declined amount declines cards only: the bank method follows the shopper', async () => {
    for (const [result, status] of [
      ['approve', 'PAID'],
      ['decline', 'FAILED'],
    ] as const) {
      const c = await create({ amount: 11, redirect_url: 'https://shop.example/return' });
      const res = await h.api('PUT', `/v0.1/checkouts/${c.id}`, { payment_type: 'bancontact' });
      const step = expectValid(ProcessAcceptedSchema, res.body).next_step;
      await postForm(step.url, { tx: step.payload!.tx!, result });
      const after = expectValid(
        CheckoutSchema,
        (await h.api('GET', `/v0.1/checkouts/${c.id}`)).body,
      );
      assert.equal(after.status, status, result);
    }
  });
});

describe('boleto', () => {
  test('200 with boleto { barcode, url } and a PENDING BOLETO transaction; settle pays it', async () => {
    const c = await create({ currency: 'BRL', amount: 25.5 });
    const res = await h.api('PUT', `/v0.1/checkouts/${c.id}`, { payment_type: 'boleto' });
    assert.equal(res.status, 200);
    const out = expectValid(CheckoutSchema, res.body);
    assert.equal(out.status, 'PENDING');
    assert.match(out.boleto?.barcode ?? '', /^\d{47}$/);
    assert.equal(out.boleto?.url, `${h.sandbox.url}/sandbox/boleto/${c.id}`);
    const txn = out.transactions?.[0];
    assert.equal(txn?.status, 'PENDING');
    assert.equal(txn?.payment_type, 'BOLETO');
    assert.equal(txn?.entry_mode, 'BOLETO');
    const voucher = await fetch(out.boleto!.url!);
    assert.equal(voucher.status, 200);
    assert.ok((await voucher.text()).includes(out.boleto!.barcode!));
    // A boleto is processed: no second attempt, no deactivation.
    h.expectError(
      await h.api('PUT', `/v0.1/checkouts/${c.id}`, { payment_type: 'boleto' }),
      409,
      'CHECKOUT_PROCESSED',
    );
    h.expectError(await h.api('DELETE', `/v0.1/checkouts/${c.id}`), 409, 'CHECKOUT_PROCESSED');
    const settled = await h.api('POST', `/sandbox/checkouts/${c.id}/settle`);
    assert.equal(settled.status, 200);
    const paid = expectValid(CheckoutSchema, settled.body);
    assert.equal(paid.status, 'PAID');
    assert.equal(paid.transactions?.[0]?.status, 'SUCCESSFUL');
    assert.equal(paid.transaction_code, txn?.transaction_code);
    h.expectError(await h.api('POST', `/sandbox/checkouts/${c.id}/settle`), 409, 'CONFLICT');
  });

  test('settle with FAILED fails the boleto; settle needs a key and a pending boleto', async () => {
    const c = await create({ currency: 'BRL' });
    await h.api('PUT', `/v0.1/checkouts/${c.id}`, { payment_type: 'boleto' });
    h.expectError(
      await h.api('POST', `/sandbox/checkouts/${c.id}/settle`, {}, null),
      401,
      'NOT_AUTHORIZED',
    );
    h.expectError(
      await h.api('POST', `/sandbox/checkouts/${c.id}/settle`, { status: 'LATER' }),
      400,
      'INVALID',
      'status',
    );
    const res = await h.api('POST', `/sandbox/checkouts/${c.id}/settle`, { status: 'FAILED' });
    assert.equal(expectValid(CheckoutSchema, res.body).status, 'FAILED');
    const card = await create({ currency: 'BRL' });
    h.expectError(await h.api('POST', `/sandbox/checkouts/${card.id}/settle`), 409, 'CONFLICT');
    h.expectError(await h.api('POST', '/sandbox/checkouts/nope/settle'), 404, 'NOT_FOUND');
    h.expectError(
      await h.api('PUT', `/v0.1/checkouts/${(await create({})).id}`, { payment_type: 'boleto' }),
      400,
      'INVALID',
      'payment_type',
    );
  });
});
