// The outcome control (POST /sandbox/outcomes): the next card payments that match get the
// outcome set there instead of the card table's, so "declined, then another card pays" can
// be tried with the documented cards. Matched by card (number or last 4), by amount, or any;
// used up one payment at a time; listed and cleared; bad bodies refused by field.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { CheckoutSchema, ProcessAcceptedSchema } from '../../../src/schemas/index.ts';
import { cardBody } from '../support/cards.ts';
import { checkoutBody, expectValid, type Harness, startSandbox } from './helpers.ts';

let h: Harness;

/** A new checkout of `amount`, paid with `number`: its status and transactions after. */
async function pay(number: string, amount = 10, currency = 'EUR') {
  const made = await h.api('POST', '/v0.1/checkouts', checkoutBody({ amount, currency }));
  assert.equal(made.status, 201, JSON.stringify(made.body));
  const created = expectValid(CheckoutSchema, made.body);
  const res = await h.api('PUT', `/v0.1/checkouts/${created.id}`, cardBody(number));
  if (res.status === 202) return { status: 'CHALLENGE', transactions: 0, res };
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const out = expectValid(CheckoutSchema, res.body);
  return { status: out.status, transactions: out.transactions?.length ?? 0, res };
}

describe('POST /sandbox/outcomes', () => {
  before(async () => {
    h = await startSandbox();
  });
  after(() => h.sandbox.close());
  beforeEach(async () => {
    await h.api('DELETE', '/sandbox/outcomes');
  });

  test('declined: the next payment only; the card after it pays as its table says', async () => {
    const set = await h.api('POST', '/sandbox/outcomes', { outcome: 'declined' });
    assert.equal(set.status, 201);
    assert.deepEqual(set.body, {
      id: (set.body as { id: string }).id,
      outcome: 'declined',
      remaining: 1,
    });
    const first = await pay('4200000000000091');
    assert.deepEqual([first.status, first.transactions], ['FAILED', 1]);
    assert.equal((await pay('4200000000000091')).status, 'PAID');
    assert.deepEqual((await h.api('GET', '/sandbox/outcomes')).body, []);
  });

  test('by card: last 4 digits or the whole number; other cards are not touched', async () => {
    await h.api('POST', '/sandbox/outcomes', { outcome: 'declined', card: '0091', times: 2 });
    assert.equal((await pay('5200000000000007')).status, 'PAID');
    assert.equal((await pay('4200000000000091')).status, 'FAILED');
    assert.equal((await pay('4200000000000091')).status, 'FAILED');
    assert.equal((await pay('4200000000000091')).status, 'PAID');
    await h.api('POST', '/sandbox/outcomes', { outcome: 'declined', card: '5200000000000007' });
    assert.equal((await pay('4111111111111111')).status, 'PAID');
    assert.equal((await pay('5200000000000007')).status, 'FAILED');
  });

  test('by amount; and paid, challenge and technical_error whatever the card', async () => {
    await h.api('POST', '/sandbox/outcomes', { outcome: 'declined', amount: 12.5 });
    assert.equal((await pay('4200000000000091', 10)).status, 'PAID');
    assert.equal((await pay('4200000000000091', 12.5)).status, 'FAILED');
    // 11.00 is a declined amount: the control pays it all the same.
    await h.api('POST', '/sandbox/outcomes', { outcome: 'paid' });
    assert.equal((await pay('4200000000000091', 11)).status, 'PAID');
    await h.api('POST', '/sandbox/outcomes', { outcome: 'challenge' });
    const challenged = await pay('4200000000000091');
    assert.equal(challenged.status, 'CHALLENGE');
    expectValid(ProcessAcceptedSchema, challenged.res.body);
    await h.api('POST', '/sandbox/outcomes', { outcome: 'technical_error' });
    const broken = await pay('4200000000000091');
    assert.deepEqual([broken.status, broken.transactions], ['FAILED', 0]);
  });

  test("the declined amounts, to the currency's minor unit: 11 yen or forints, 11.000 dinars but not 11.004", async () => {
    const declined = [
      [11, 'JPY'],
      [11, 'HUF'],
      [11, 'KWD'],
      [42.01, 'KWD'],
      [42.91, 'EUR'],
    ] as const;
    for (const [amount, currency] of declined) {
      assert.equal(
        (await pay('4200000000000091', amount, currency)).status,
        'FAILED',
        `${amount} ${currency}`,
      );
    }
    // Before, amounts were compared in cents: these dinar amounts, a fils or a few off the
    // documented ones, were declined too.
    const paid = [
      [11.004, 'KWD'],
      [10.995, 'KWD'],
      [42.005, 'KWD'],
      [42.014, 'KWD'],
      [42, 'JPY'],
      [4201, 'JPY'],
    ] as const;
    for (const [amount, currency] of paid) {
      assert.equal(
        (await pay('4200000000000091', amount, currency)).status,
        'PAID',
        `${amount} ${currency}`,
      );
    }
  });

  test("by amount in the payment's currency: 5.125 dinars matches 5.125, never 5.13 or 5.12; 1000 yen 1000", async () => {
    await h.api('POST', '/sandbox/outcomes', { outcome: 'declined', amount: 5.125, times: 2 });
    assert.equal((await pay('4200000000000091', 5.13, 'KWD')).status, 'PAID');
    assert.equal((await pay('4200000000000091', 5.12, 'KWD')).status, 'PAID');
    assert.equal((await pay('4200000000000091', 5.126, 'KWD')).status, 'PAID');
    // Never a euro amount: no euro payment is 5.125.
    assert.equal((await pay('4200000000000091', 5.13, 'EUR')).status, 'PAID');
    assert.equal((await pay('4200000000000091', 5.125, 'KWD')).status, 'FAILED');
    await h.api('DELETE', '/sandbox/outcomes');
    await h.api('POST', '/sandbox/outcomes', { outcome: 'declined', amount: 1000 });
    assert.equal((await pay('4200000000000091', 1001, 'JPY')).status, 'PAID');
    assert.equal((await pay('4200000000000091', 1000, 'JPY')).status, 'FAILED');
    // No currency has more than four decimals (CLF's, UYW's): an amount with more matches no
    // payment.
    h.expectError(
      await h.api('POST', '/sandbox/outcomes', { outcome: 'declined', amount: 5.12555 }),
      400,
      'INVALID',
      'amount',
    );
  });

  test('listed oldest first, cleared with DELETE; bad bodies are 400 naming the field', async () => {
    await h.api('POST', '/sandbox/outcomes', { outcome: 'declined', times: 3 });
    await h.api('POST', '/sandbox/outcomes', { outcome: 'paid', card: '1114' });
    const listed = (await h.api('GET', '/sandbox/outcomes')).body as { outcome: string }[];
    assert.deepEqual(
      listed.map((o) => o.outcome),
      ['declined', 'paid'],
    );
    assert.equal((await h.api('DELETE', '/sandbox/outcomes')).status, 204);
    assert.deepEqual((await h.api('GET', '/sandbox/outcomes')).body, []);
    h.expectError(
      await h.api('POST', '/sandbox/outcomes', { outcome: 'refunded' }),
      400,
      'INVALID',
      'outcome',
    );
    h.expectError(
      await h.api('POST', '/sandbox/outcomes', { outcome: 'declined', card: '12' }),
      400,
      'INVALID',
      'card',
    );
    h.expectError(
      await h.api('POST', '/sandbox/outcomes', { outcome: 'declined', times: 1001 }),
      400,
      'INVALID',
      'times',
    );
    h.expectError(
      await h.api('POST', '/sandbox/outcomes', { outcome: 'paid' }, null),
      401,
      'NOT_AUTHORIZED',
    );
  });
});
