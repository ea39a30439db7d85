// The client against the real sandbox, with its fault control (`/sandbox/faults`)
// standing in for a flaky provider.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import type { Sandbox } from '../../../src/sandbox/index.ts';
import { createProviderClient, ProviderError } from '../../../src/server/index.ts';
import { cardBody } from '../support/cards.ts';
import { startSandbox } from './fixtures.ts';

let sb: Sandbox;
describe('the client against the sandbox and its faults', () => {
  before(async () => {
    sb = await startSandbox();
  });
  after(async () => {
    await sb.close();
  });
  beforeEach(() => sb.reset());

  async function fault(body: Record<string, unknown>) {
    const res = await fetch(`${sb.url}/sandbox/faults`, {
      method: 'POST',
      headers: { authorization: `Bearer ${sb.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    assert.equal(res.status, 201, await res.text());
  }

  async function newCheckout(client: ReturnType<typeof createProviderClient>) {
    const checkout = await client.checkouts.create({
      checkout_reference: crypto.randomUUID(),
      amount: 10,
      currency: 'EUR',
      merchant_code: sb.merchantCode,
    });
    assert.ok(checkout.id);
    return checkout.id;
  }

  test('a GET survives two 503s from the provider', async () => {
    const client = createProviderClient({
      baseUrl: sb.url,
      apiKey: sb.apiKey,
      retries: 2,
      retryDelayMs: 5,
    });
    const id = await newCheckout(client);
    await fault({
      method: 'GET',
      path: '/v0.1/checkouts/:id',
      kind: 'error',
      status: 503,
      times: 2,
    });
    const checkout = await client.checkouts.get(id);
    assert.equal(checkout.status, 'PENDING');
  });

  test('a dropped PUT is not repeated: the checkout is read and found untouched', async () => {
    const client = createProviderClient({ baseUrl: sb.url, apiKey: sb.apiKey, retryDelayMs: 5 });
    const id = await newCheckout(client);
    await fault({ method: 'PUT', path: '/v0.1/checkouts/:id', kind: 'drop', times: 1 });
    await assert.rejects(client.checkouts.process(id, cardBody('4200000000000091')), (error) => {
      assert.ok(error instanceof ProviderError);
      assert.equal(error.kind, 'network');
      assert.equal(error.retryable, true);
      return true;
    });
    // The retry the error allows goes through once the fault is gone.
    const result = await client.checkouts.process(id, cardBody('4200000000000091'));
    assert.ok(result.kind === 'checkout' && result.checkout.status === 'PAID');
  });

  test('a wrong key is a ProviderError 401 that does not repeat the key', async () => {
    const client = createProviderClient({ baseUrl: sb.url, apiKey: 'sk_test_wrong_key' });
    await assert.rejects(client.checkouts.list(), (error) => {
      assert.ok(error instanceof ProviderError);
      assert.equal(error.status, 401);
      assert.equal(error.errorCode, 'NOT_AUTHORIZED');
      assert.ok(!error.message.includes('sk_test_wrong_key'));
      return true;
    });
  });

  test('customer and transaction endpoints reach the sandbox and validate its answers', async () => {
    const client = createProviderClient({ baseUrl: sb.url, apiKey: sb.apiKey });
    const created = await client.customers.create({
      customer_id: 'cus_ada',
      personal_details: { first_name: 'Ada' },
    });
    assert.equal(created.customer_id, 'cus_ada');
    const updated = await client.customers.update('cus_ada', {
      personal_details: { last_name: 'Lovelace' },
    });
    assert.equal(updated.personal_details?.first_name, 'Ada');
    assert.equal(updated.personal_details?.last_name, 'Lovelace');
    assert.deepEqual(await client.customers.listPaymentInstruments('cus_ada'), []);

    const id = await newCheckout(client);
    const paid = await client.checkouts.process(id, cardBody('4200000000000091'));
    assert.ok(paid.kind === 'checkout');
    const code = paid.checkout.transaction_code;
    assert.ok(code);
    const transaction = await client.transactions.get(sb.merchantCode, { transaction_code: code });
    assert.equal(transaction.transaction_code, code);
    const history = await client.transactions.history(sb.merchantCode, { limit: 10 });
    assert.ok(history.items.some((item) => item.transaction_code === code));
  });
});
