// Merchant endpoints over HTTP: /v0.1/me with include[], the profile parts, settings, and bank
// accounts (v1.1 and the deprecated v0.1 alias) with the primary filter and scopes.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  BankAccountListSchema,
  DoingBusinessAsSchema,
  MerchantAccountSchema,
  MerchantProfileSchema,
  MerchantSettingsSchema,
  PersonalProfileSchema,
} from '../../../src/schemas/index.ts';
import { expectValid, type Harness, startSandbox } from '../sandbox/helpers.ts';
import { assertDeprecated, MERCHANT } from './helpers.ts';

describe('merchant account', () => {
  let h: Harness;
  before(async () => {
    h = await startSandbox({
      restrictedKeys: {
        sk_test_readonly: ['user.profile_readonly'],
        sk_test_payout: ['user.payout-settings'],
        sk_test_payments: ['payments'],
      },
    });
  });
  after(() => h.sandbox.close());

  test('GET /v0.1/me returns the account, both profiles and permissions by default', async () => {
    const res = await h.api('GET', '/v0.1/me');
    assert.equal(res.status, 200);
    const me = expectValid(MerchantAccountSchema, res.body);
    assert.deepEqual(me.account, { username: 'merchant@example.com', type: 'normal' });
    assert.equal(me.merchant_profile?.merchant_code, MERCHANT);
    assert.equal(me.merchant_profile?.country, 'DE');
    assert.equal(me.personal_profile?.complete, true);
    assert.equal(me.permissions?.refund_transactions, true);
    // The optional sections stay out until asked for.
    assert.equal(me.merchant_profile?.settings, undefined);
    assert.equal(me.merchant_profile?.bank_accounts, undefined);
    assert.equal(me.merchant_profile?.doing_business_as, undefined);
    assert.equal(me.app_settings, undefined);
    assert.equal(me.merchant_profile?.address?.country_details, undefined);
  });

  test('include[] adds each section it names', async () => {
    const q = ['settings', 'doing_business_as', 'bank_accounts', 'app_settings', 'country_details']
      .map((i) => `include[]=${i}`)
      .join('&');
    const res = await h.api('GET', `/v0.1/me?${q}`);
    const me = expectValid(MerchantAccountSchema, res.body);
    assert.equal(me.merchant_profile?.settings?.payout_type, 'BANK_ACCOUNT');
    assert.equal(me.merchant_profile?.doing_business_as?.business_name, 'Sandbox Merchant');
    assert.equal(me.merchant_profile?.bank_accounts?.length, 2);
    assert.ok(me.app_settings?.tip_rates?.length);
    assert.equal(me.merchant_profile?.address?.country_details?.currency, 'EUR');
    assert.equal(me.personal_profile?.address?.country_details?.iso_code, 'DE');

    const one = expectValid(
      MerchantAccountSchema,
      (await h.api('GET', '/v0.1/me?include[]=settings')).body,
    );
    assert.ok(one.merchant_profile?.settings);
    assert.equal(one.merchant_profile?.bank_accounts, undefined);
  });

  test('an unknown include[] value is a 400 naming include[]', async () => {
    h.expectError(await h.api('GET', '/v0.1/me?include[]=secrets'), 400, 'INVALID', 'include[]');
  });

  test('personal profile, merchant profile, settings and doing-business-as', async () => {
    const personal = expectValid(
      PersonalProfileSchema,
      (await h.api('GET', '/v0.1/me/personal-profile')).body,
    );
    assert.equal(personal.first_name, 'Erika');
    const profile = expectValid(
      MerchantProfileSchema,
      (await h.api('GET', '/v0.1/me/merchant-profile')).body,
    );
    assert.equal(profile.merchant_code, MERCHANT);
    assert.equal(profile.bank_accounts?.filter((b) => b.primary).length, 1);
    const settingsRes = await h.api('GET', '/v0.1/me/merchant-profile/settings');
    const settings = expectValid(MerchantSettingsSchema, settingsRes.body);
    assert.equal(settings.moto_payment, 'UNAVAILABLE');
    // The acquirer-named key survives: the schema is loose on purpose.
    assert.equal(
      (settingsRes.body as Record<string, unknown>).acquirer_merchant_code,
      `A${MERCHANT}`,
    );
    const dba = expectValid(
      DoingBusinessAsSchema,
      (await h.api('GET', '/v0.1/me/merchant-profile/doing-business-as')).body,
    );
    assert.equal(dba.email, 'merchant@example.com');
    assert.equal(dba.address?.city, 'Berlin');
  });

  test('bank accounts v1.1: all, primary=true, bad filter, other merchant', async () => {
    const all = expectValid(
      BankAccountListSchema,
      (await h.api('GET', `/v1.1/merchants/${MERCHANT}/bank-accounts`)).body,
    );
    assert.equal(all.length, 2);
    assert.equal(all[0]?.iban, 'DE89370400440532013000');
    const primary = expectValid(
      BankAccountListSchema,
      (await h.api('GET', `/v1.1/merchants/${MERCHANT}/bank-accounts?primary=true`)).body,
    );
    assert.deepEqual(
      primary.map((b) => b.primary),
      [true],
    );
    const notPrimary = await h.api(
      'GET',
      `/v1.1/merchants/${MERCHANT}/bank-accounts?primary=false`,
    );
    assert.equal((notPrimary.body as unknown[]).length, 2);
    h.expectError(
      await h.api('GET', `/v1.1/merchants/${MERCHANT}/bank-accounts?primary=yes`),
      400,
      'INVALID',
      'primary',
    );
    h.expectError(await h.api('GET', '/v1.1/merchants/MOTHER/bank-accounts'), 404, 'NOT_FOUND');
  });

  test('the deprecated v0.1 bank accounts alias answers the same, with Deprecation and Link', async () => {
    const v11 = await h.api('GET', `/v1.1/merchants/${MERCHANT}/bank-accounts?primary=true`);
    const v01 = await h.api('GET', '/v0.1/me/merchant-profile/bank-accounts?primary=true');
    assert.equal(v01.status, 200);
    assert.deepEqual(v01.body, v11.body);
    assertDeprecated(v01, `/v1.1/merchants/${MERCHANT}/bank-accounts?primary=true`);
    assert.equal(v11.headers.get('deprecation'), null);
  });

  test('scopes: profile reads take user.profile_readonly; settings need user.payout-settings', async () => {
    assert.equal((await h.api('GET', '/v0.1/me', undefined, 'sk_test_readonly')).status, 200);
    const denied = await h.api(
      'GET',
      '/v0.1/me/merchant-profile/settings',
      undefined,
      'sk_test_readonly',
    );
    assert.equal(denied.status, 403);
    const settings = await h.api(
      'GET',
      '/v0.1/me/merchant-profile/settings',
      undefined,
      'sk_test_payout',
    );
    assert.equal(settings.status, 200);
    assert.equal((await h.api('GET', '/v0.1/me', undefined, 'sk_test_payout')).status, 403);
    const banks = await h.api(
      'GET',
      `/v1.1/merchants/${MERCHANT}/bank-accounts`,
      undefined,
      'sk_test_payout',
    );
    assert.equal(banks.status, 200);
    for (const path of [
      '/v0.1/me',
      '/v0.1/me/personal-profile',
      `/v1.1/merchants/${MERCHANT}/bank-accounts`,
    ]) {
      assert.equal((await h.api('GET', path, undefined, 'sk_test_payments')).status, 403, path);
      assert.equal((await h.api('GET', path, undefined, null)).status, 401, path);
    }
  });
});

describe('merchant seed is configurable', () => {
  test('country presets and SandboxOptions.merchant overrides', async () => {
    const h = await startSandbox({
      country: 'BR',
      merchantCode: 'MBRASIL1',
      merchant: {
        doing_business_as: { business_name: 'Loja Exemplo' },
        settings: { payout_period: 'weekly' },
        bank_accounts: [{ bank_code: '341', account_number: '9999-1', primary: true }],
      },
    });
    try {
      const me = expectValid(
        MerchantAccountSchema,
        (
          await h.api(
            'GET',
            '/v0.1/me?include[]=doing_business_as&include[]=settings&include[]=country_details',
          )
        ).body,
      );
      assert.equal(me.merchant_profile?.merchant_code, 'MBRASIL1');
      assert.equal(me.merchant_profile?.locale, 'pt-BR');
      assert.equal(me.merchant_profile?.address?.country_details?.currency, 'BRL');
      assert.equal(me.merchant_profile?.doing_business_as?.business_name, 'Loja Exemplo');
      // Overrides keep the fields they do not name.
      assert.equal(me.merchant_profile?.settings?.payout_period, 'weekly');
      assert.equal(me.merchant_profile?.settings?.payout_type, 'BANK_ACCOUNT');
      const banks = await h.api('GET', '/v1.1/merchants/MBRASIL1/bank-accounts');
      assert.deepEqual(banks.body, [{ bank_code: '341', account_number: '9999-1', primary: true }]);
    } finally {
      await h.sandbox.close();
    }
  });
});
