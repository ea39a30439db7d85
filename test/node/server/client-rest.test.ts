// The typed client's merchant, bank account, payout, receipt, reader and operator groups
// against a real sandbox: every method is called over HTTP, so a wrong path, verb, query
// encoding or schema shows here rather than in a merchant's integration. The client validates
// each answer with the shared schemas; the assertions check what a merchant would read.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { createSandbox, type Sandbox } from '../../../src/sandbox/index.ts';
import {
  createProviderClient,
  type ProviderClient,
  ProviderError,
} from '../../../src/server/index.ts';
import { cardBody } from '../support/cards.ts';

/** Holds only the read-only profile scope: enough for `/v0.1/me`, nothing else. */
const PROFILE_ONLY_KEY = 'sk_test_profile_only';
/** Reads readers but may not pair or charge them. */
const READERS_READ_KEY = 'sk_test_readers_read';

let sb: Sandbox;
let client: ProviderClient;
let merchantCode: string;

describe("the typed client's REST groups against the sandbox", () => {
  before(async () => {
    sb = await createSandbox({
      port: 0,
      // Pairing confirms at once so reader tests need not wait for the simulated device.
      readers: { pairingDelayMs: 0 },
      webhook: { attempts: 1 },
      restrictedKeys: {
        [PROFILE_ONLY_KEY]: ['user.profile_readonly'],
        [READERS_READ_KEY]: ['readers.read'],
      },
    });
    client = createProviderClient({ baseUrl: sb.url, apiKey: sb.apiKey, retryDelayMs: 5 });
    merchantCode = sb.merchantCode;
  });
  after(async () => {
    await sb.close();
  });
  beforeEach(() => sb.reset());

  const today = () => new Date().toISOString().slice(0, 10);

  /** A control-surface call (never part of the provider API, so not in the client). */
  async function control(path: string, body: unknown = {}): Promise<Record<string, unknown>> {
    const res = await fetch(`${sb.url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${sb.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const answer = (await res.json()) as Record<string, unknown>;
    assert.ok(res.ok, `${path} answered ${res.status}: ${JSON.stringify(answer)}`);
    return answer;
  }

  async function paidTransaction(amount = 10) {
    const checkout = await client.checkouts.create({
      checkout_reference: crypto.randomUUID(),
      amount,
      currency: 'EUR',
      merchant_code: merchantCode,
      description: 'Tea',
    });
    const result = await client.checkouts.process(checkout.id ?? '', cardBody('4200000000000091'));
    assert.ok(result.kind === 'checkout' && result.checkout.status === 'PAID');
    const code = result.checkout.transaction_code;
    assert.ok(code);
    return client.transactions.get(merchantCode, { transaction_code: code });
  }

  async function expectProviderError(
    promise: Promise<unknown>,
    status: number,
    errorCode: string,
    param?: string,
  ) {
    await assert.rejects(promise, (error) => {
      assert.ok(error instanceof ProviderError, String(error));
      assert.equal(error.kind, 'http');
      assert.equal(error.status, status, error.message);
      assert.equal(error.errorCode, errorCode, error.message);
      if (param !== undefined) assert.equal(error.param, param);
      return true;
    });
  }

  describe('merchant', () => {
    test('the account without include[] has both profiles but no settings or bank accounts', async () => {
      const account = await client.merchant.getAccount();
      assert.equal(account.merchant_profile?.merchant_code, merchantCode);
      assert.ok(account.personal_profile);
      assert.equal(account.merchant_profile?.settings, undefined);
      assert.equal(account.merchant_profile?.bank_accounts, undefined);
    });

    test('include[] adds exactly the sections asked for', async () => {
      const account = await client.merchant.getAccount(['settings', 'bank_accounts']);
      assert.ok(account.merchant_profile?.settings);
      assert.ok((account.merchant_profile?.bank_accounts ?? []).length > 0);
      assert.equal(account.merchant_profile?.doing_business_as, undefined);
    });

    test('an unknown include[] value is a 400 that names include[]', async () => {
      await expectProviderError(
        client.merchant.getAccount(['passwords']),
        400,
        'INVALID',
        'include[]',
      );
    });

    test('profiles, settings and doing-business-as each come back on their own', async () => {
      const personal = await client.merchant.getPersonalProfile();
      assert.ok(personal.first_name);
      const profile = await client.merchant.getMerchantProfile();
      assert.equal(profile.merchant_code, merchantCode);
      const settings = await client.merchant.getSettings();
      assert.equal(typeof settings, 'object');
      const dba = await client.merchant.getDoingBusinessAs();
      assert.ok(dba.business_name);
    });
  });

  describe('bank accounts', () => {
    test('v1.1 lists every account; primary=true keeps only the payout account', async () => {
      const all = await client.merchant.listBankAccounts(merchantCode);
      assert.ok(all.length >= 2, 'the seeded merchant has more than one account');
      const primary = await client.merchant.listBankAccounts(merchantCode, { primary: true });
      assert.equal(primary.length, 1);
      assert.equal(primary[0]?.primary, true);
      assert.deepEqual(
        await client.merchant.listBankAccounts(merchantCode, { primary: false }),
        all,
      );
    });

    test('the deprecated v0.1 alias answers the same accounts', async () => {
      assert.deepEqual(
        await client.merchant.listBankAccountsV01(),
        await client.merchant.listBankAccounts(merchantCode),
      );
      const primary = await client.merchant.listBankAccountsV01({ primary: true });
      assert.equal(primary.length, 1);
    });

    test('another merchant code is a 404', async () => {
      await expectProviderError(client.merchant.listBankAccounts('MOTHER123'), 404, 'NOT_FOUND');
    });
  });

  describe('payouts', () => {
    test('v1.0 pays out a sale net of its fee; the deprecated alias agrees', async () => {
      const txn = await paidTransaction(10);
      const range = { start_date: today(), end_date: today() };
      const payouts = await client.payouts.list(merchantCode, range);
      const line = payouts.find((p) => p.transaction_code === txn.transaction_code);
      assert.ok(line, JSON.stringify(payouts));
      assert.equal(line.type, 'PAYOUT');
      assert.ok((line.fee ?? 0) > 0);
      assert.equal(Math.round(((line.amount ?? 0) + (line.fee ?? 0)) * 100), 1000);
      assert.deepEqual(await client.payouts.listV01(range), payouts);
    });

    test('limit and order shape the list', async () => {
      await paidTransaction(10);
      await paidTransaction(12);
      const range = { start_date: today(), end_date: today() };
      const asc = await client.payouts.list(merchantCode, {
        ...range,
        order: 'asc',
        format: 'json',
      });
      assert.equal(asc.length, 2);
      const desc = await client.payouts.list(merchantCode, { ...range, order: 'desc' });
      assert.deepEqual(
        desc.map((p) => p.id),
        [...asc].reverse().map((p) => p.id),
      );
      assert.equal((await client.payouts.list(merchantCode, { ...range, limit: 1 })).length, 1);
    });

    test('an end before the start is a 400 naming end_date', async () => {
      await expectProviderError(
        client.payouts.list(merchantCode, { start_date: '2024-02-02', end_date: '2024-02-01' }),
        400,
        'INVALID',
        'end_date',
      );
    });
  });

  describe('receipts', () => {
    test('a receipt is built from the transaction, by id or for one of its events', async () => {
      const txn = await paidTransaction(10);
      const receipt = await client.receipts.get(txn.id ?? '', { mid: merchantCode });
      assert.equal(receipt.transaction_data?.transaction_code, txn.transaction_code);
      assert.equal(receipt.merchant_data?.merchant_profile?.merchant_code, merchantCode);

      await client.transactions.refund(txn.id ?? '', { amount: 4 });
      const refunded = await client.transactions.get(merchantCode, { id: txn.id ?? '' });
      const refund = refunded.events?.find((e) => e.type === 'REFUND');
      assert.ok(refund?.id !== undefined, JSON.stringify(refunded.events));
      const refundReceipt = await client.receipts.get(txn.id ?? '', {
        mid: merchantCode,
        tx_event_id: Number(refund.id),
      });
      assert.equal(refundReceipt.transaction_data?.transaction_code, txn.transaction_code);
    });

    test('an empty mid is a 400 naming mid; another merchant sees no receipt', async () => {
      const txn = await paidTransaction(10);
      await expectProviderError(
        client.receipts.get(txn.id ?? '', { mid: '' }),
        400,
        'MISSING',
        'mid',
      );
      // The provider documents only 400 for receipts, so "not found" comes as 400 NOT_FOUND.
      await expectProviderError(
        client.receipts.get(txn.id ?? '', { mid: 'MOTHER123' }),
        400,
        'NOT_FOUND',
      );
    });
  });

  describe('readers', () => {
    async function pairNewReader(name?: string) {
      const device = await control('/sandbox/devices', { model: 'virtual-solo' });
      const reader = await client.readers.create(merchantCode, {
        pairing_code: String(device.pairing_code),
        ...(name === undefined ? {} : { name }),
      });
      return { device: String(device.identifier), reader };
    }

    test('pair, list, get, rename and delete a reader', async () => {
      const { device, reader } = await pairNewReader('Front desk');
      assert.equal(reader.name, 'Front desk');
      assert.equal(reader.device.identifier, device);
      assert.equal(reader.device.model, 'virtual-solo');

      const listed = await client.readers.list(merchantCode);
      assert.deepEqual(
        listed.items.map((r) => r.id),
        [reader.id],
      );
      const got = await client.readers.get(merchantCode, reader.id);
      assert.equal(got.status, 'paired');

      const renamed = await client.readers.update(merchantCode, reader.id, {
        name: 'Back office',
        meta: { till: 2 },
      });
      assert.equal(renamed.name, 'Back office');
      assert.deepEqual(renamed.meta, { till: 2 });

      await client.readers.delete(merchantCode, reader.id);
      assert.deepEqual((await client.readers.list(merchantCode)).items, []);
      await expectProviderError(client.readers.get(merchantCode, reader.id), 404, 'NOT_FOUND');
    });

    test('a checkout starts on the device and a card presented there pays it', async () => {
      const { device, reader } = await pairNewReader();
      const started = await client.readers.checkout(merchantCode, reader.id, {
        total_amount: { value: 1250, currency: 'EUR', minor_unit: 2 },
        description: 'Coffee',
      });
      const id = started.data.client_transaction_id;
      assert.ok(id);
      const presented = await control(`/sandbox/devices/${device}/present-card`, {});
      assert.equal((presented.result as { status?: string }).status, 'successful');
      const txn = await client.transactions.get(merchantCode, { client_transaction_id: id });
      assert.equal(txn.status, 'SUCCESSFUL');
      assert.equal(txn.amount, 12.5);
    });

    test('terminate stops a waiting checkout as failed; with nothing waiting it is a 422', async () => {
      const { reader } = await pairNewReader();
      const started = await client.readers.checkout(merchantCode, reader.id, {
        total_amount: { value: 500, currency: 'EUR', minor_unit: 2 },
      });
      await client.readers.terminate(merchantCode, reader.id);
      const txn = await client.transactions.get(merchantCode, {
        client_transaction_id: started.data.client_transaction_id,
      });
      assert.equal(txn.status, 'FAILED');
      await expectProviderError(
        client.readers.terminate(merchantCode, reader.id),
        422,
        'READER_NOT_WAITING',
      );
    });

    test('a refused checkout surfaces the readers error code and the field', async () => {
      const { reader } = await pairNewReader();
      await expectProviderError(
        client.readers.checkout(merchantCode, reader.id, {
          total_amount: { value: 500, currency: 'USD', minor_unit: 2 },
        }),
        422,
        'INVALID',
        'total_amount.currency',
      );
    });

    test('a code no device shows is a 400 naming pairing_code', async () => {
      await expectProviderError(
        client.readers.create(merchantCode, { pairing_code: 'ZZZZ2222' }),
        400,
        'INVALID',
        'pairing_code',
      );
    });
  });

  describe('operators', () => {
    test('create, list (query, include_primary), get and update an operator', async () => {
      const created = await client.operators.create({
        username: 'till@example.com',
        password: 'correct horse',
        nickname: 'Till one',
        permissions: { refund_transactions: true },
      });
      assert.equal(created.username, 'till@example.com');
      assert.equal(created.permissions?.refund_transactions, true);
      assert.equal(created.disabled, false);

      const onlyOperators = await client.operators.list();
      assert.deepEqual(
        onlyOperators.map((o) => o.id),
        [created.id],
      );
      const withPrimary = await client.operators.list({ include_primary: true });
      assert.equal(withPrimary.length, 2);
      assert.deepEqual(
        (await client.operators.list({ query: 'till one' })).map((o) => o.id),
        [created.id],
      );
      assert.deepEqual(await client.operators.list({ query: 'nobody' }), []);

      assert.equal((await client.operators.get(created.id)).nickname, 'Till one');
      const disabled = await client.operators.update(created.id, { disabled: true });
      assert.equal(disabled.disabled, true);
      // The seed's rule: a new password unblocks a disabled operator.
      const unblocked = await client.operators.update(created.id, { password: 'new password 1' });
      assert.equal(unblocked.disabled, false);
    });

    test('a taken username and an unknown operator are refused', async () => {
      await client.operators.create({ username: 'dup@example.com', password: 'long enough' });
      await assert.rejects(
        client.operators.create({ username: 'dup@example.com', password: 'long enough' }),
        (error) => error instanceof ProviderError && error.status >= 400 && error.status < 500,
      );
      await expectProviderError(client.operators.get(999_999), 404, 'NOT_FOUND');
    });
  });

  describe('scopes', () => {
    test('a key without the scope gets ProviderError 403 FORBIDDEN, not the data', async () => {
      const limited = createProviderClient({ baseUrl: sb.url, apiKey: PROFILE_ONLY_KEY });
      // The scope it has works...
      assert.equal((await limited.merchant.getMerchantProfile()).merchant_code, merchantCode);
      // ...the ones it lacks do not.
      await expectProviderError(limited.readers.list(merchantCode), 403, 'FORBIDDEN');
      await expectProviderError(
        limited.operators.create({ username: 'x@example.com', password: 'long enough' }),
        403,
        'FORBIDDEN',
      );
      await expectProviderError(
        limited.receipts.get('anything', { mid: merchantCode }),
        403,
        'FORBIDDEN',
      );
    });

    test('readers.read lists readers but may not pair one', async () => {
      const readOnly = createProviderClient({ baseUrl: sb.url, apiKey: READERS_READ_KEY });
      assert.deepEqual((await readOnly.readers.list(merchantCode)).items, []);
      await expectProviderError(
        readOnly.readers.create(merchantCode, { pairing_code: 'ABCD2345' }),
        403,
        'FORBIDDEN',
      );
    });
  });
});
