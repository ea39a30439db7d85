// Operators (deprecated sub-accounts) over HTTP: list with query and include_primary, create,
// get, update by PUT (a new password unblocks), deactivate, the chosen scopes, and the
// Deprecation header on every one of them.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { OperatorListSchema, OperatorSchema } from '../../../src/schemas/index.ts';
import { expectValid, type Harness, startSandbox } from '../sandbox/helpers.ts';
import { assertDeprecated } from './helpers.ts';

describe('operators', () => {
  let h: Harness;
  before(async () => {
    h = await startSandbox({
      restrictedKeys: {
        sk_test_readonly: ['user.profile_readonly'],
        sk_test_payments: ['payments'],
      },
    });
  });
  after(() => h.sandbox.close());

  const create = (body: Record<string, unknown>) => h.api('POST', '/v0.1/me/accounts', body);

  test('create answers 200 with the operator, without the password', async () => {
    const res = await create({
      username: 'anna@example.com',
      password: 'correct horse battery',
      nickname: 'Anna',
      permissions: { refund_transactions: true },
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const op = expectValid(OperatorSchema, res.body);
    assert.equal(op.username, 'anna@example.com');
    assert.equal(op.nickname, 'Anna');
    assert.equal(op.disabled, false);
    assert.equal(op.account_type, 'operator');
    assert.deepEqual(op.permissions, {
      create_moto_payments: false,
      full_transaction_history_view: false,
      refund_transactions: true,
      create_referral: false,
    });
    assert.ok(!JSON.stringify(res.body).includes('correct horse'));
    assert.ok(!h.logs.some((l) => l.includes('correct horse')));
    assertDeprecated(res);
    const got = await h.api('GET', `/v0.1/me/accounts/${op.id}`);
    assert.deepEqual(got.body, res.body);
    assertDeprecated(got);
  });

  test('create refuses a bad username or password and a taken username', async () => {
    h.expectError(
      await create({ username: 'not-an-email', password: 'longenough' }),
      400,
      'INVALID',
      'username',
    );
    h.expectError(
      await create({ username: 'b@example.com', password: 'short' }),
      400,
      'INVALID',
      'password',
    );
    h.expectError(await create({ username: 'b@example.com' }), 400, 'MISSING', 'password');
    h.expectError(
      await create({
        username: 'b@example.com',
        password: 'longenough',
        permissions: { refund_transactions: 'yes' },
      }),
      400,
      'INVALID',
      'permissions.refund_transactions',
    );
    h.expectError(
      await create({ username: 'ANNA@example.com', password: 'longenough' }),
      409,
      'CONFLICT',
      'username',
    );
    h.expectError(
      await create({ username: 'merchant@example.com', password: 'longenough' }),
      409,
      'CONFLICT',
      'username',
    );
  });

  test('list: query filters by username or nickname; include_primary adds the owner', async () => {
    await create({ username: 'ben@example.com', password: 'longenough', nickname: 'Till 2' });
    const all = expectValid(OperatorListSchema, (await h.api('GET', '/v0.1/me/accounts')).body);
    assert.ok(all.every((o) => o.account_type === 'operator'));
    assert.ok(all.length >= 2);
    const byName = expectValid(
      OperatorListSchema,
      (await h.api('GET', '/v0.1/me/accounts?query=ben')).body,
    );
    assert.deepEqual(
      byName.map((o) => o.username),
      ['ben@example.com'],
    );
    const byNick = expectValid(
      OperatorListSchema,
      (await h.api('GET', '/v0.1/me/accounts?query=till')).body,
    );
    assert.deepEqual(
      byNick.map((o) => o.username),
      ['ben@example.com'],
    );
    const withPrimary = await h.api('GET', '/v0.1/me/accounts?include_primary=true');
    const list = expectValid(OperatorListSchema, withPrimary.body);
    assert.equal(list[0]?.account_type, 'normal');
    assert.equal(list[0]?.username, 'merchant@example.com');
    assert.equal(list.length, all.length + 1);
    assertDeprecated(withPrimary);
    h.expectError(
      await h.api('GET', '/v0.1/me/accounts?include_primary=1'),
      400,
      'INVALID',
      'include_primary',
    );
  });

  test('update by PUT: fields change, permissions merge, a new password unblocks', async () => {
    const op = expectValid(
      OperatorSchema,
      (await create({ username: 'cleo@example.com', password: 'longenough' })).body,
    );
    const put = (body: Record<string, unknown>) => h.api('PUT', `/v0.1/me/accounts/${op.id}`, body);
    const renamed = await put({ nickname: 'Cleo', permissions: { create_moto_payments: true } });
    assert.equal(renamed.status, 200);
    assertDeprecated(renamed);
    const r = expectValid(OperatorSchema, renamed.body);
    assert.equal(r.nickname, 'Cleo');
    assert.equal(r.permissions?.create_moto_payments, true);
    const more = expectValid(
      OperatorSchema,
      (await put({ permissions: { refund_transactions: true } })).body,
    );
    assert.equal(
      more.permissions?.create_moto_payments,
      true,
      'permissions not sent keep their values',
    );
    assert.equal(more.permissions?.refund_transactions, true);

    assert.equal(expectValid(OperatorSchema, (await put({ disabled: true })).body).disabled, true);
    assert.equal(expectValid(OperatorSchema, (await put({ nickname: 'C.' })).body).disabled, true);
    const unblocked = expectValid(OperatorSchema, (await put({ password: 'a new password' })).body);
    assert.equal(unblocked.disabled, false);
    // An explicit disabled wins over the unblocking password.
    const both = expectValid(
      OperatorSchema,
      (await put({ password: 'another one', disabled: true })).body,
    );
    assert.equal(both.disabled, true);

    h.expectError(await put({ username: 'anna@example.com' }), 409, 'CONFLICT', 'username');
    h.expectError(await put({ password: 'short' }), 400, 'INVALID', 'password');
    h.expectError(
      await h.api('PUT', '/v0.1/me/accounts/999999', { nickname: 'x' }),
      400,
      'NOT_FOUND',
    );
  });

  test('get and deactivate: unknown ids, bad ids, and the primary account', async () => {
    h.expectError(await h.api('GET', '/v0.1/me/accounts/999999'), 404, 'NOT_FOUND');
    h.expectError(await h.api('GET', '/v0.1/me/accounts/abc'), 400, 'INVALID', 'operator_id');
    const primary = expectValid(OperatorSchema, (await h.api('GET', '/v0.1/me/accounts/1')).body);
    assert.equal(primary.account_type, 'normal');
    h.expectError(await h.api('PUT', '/v0.1/me/accounts/1', { nickname: 'x' }), 403, 'FORBIDDEN');
    h.expectError(await h.api('DELETE', '/v0.1/me/accounts/1'), 403, 'FORBIDDEN');
    const op = expectValid(
      OperatorSchema,
      (await create({ username: 'dan@example.com', password: 'longenough' })).body,
    );
    const removed = await h.api('DELETE', `/v0.1/me/accounts/${op.id}`);
    assert.equal(removed.status, 200);
    assertDeprecated(removed);
    assert.equal(expectValid(OperatorSchema, removed.body).disabled, true);
  });

  test('scopes: reads with user.profile_readonly, changes need user.profile', async () => {
    assert.equal(
      (await h.api('GET', '/v0.1/me/accounts', undefined, 'sk_test_readonly')).status,
      200,
    );
    assert.equal(
      (
        await h.api(
          'POST',
          '/v0.1/me/accounts',
          { username: 'fay@example.com', password: 'longenough' },
          'sk_test_readonly',
        )
      ).status,
      403,
    );
    assert.equal(
      (await h.api('GET', '/v0.1/me/accounts', undefined, 'sk_test_payments')).status,
      403,
    );
    const unauth = await h.api('GET', '/v0.1/me/accounts', undefined, null);
    assert.equal(unauth.status, 401);
    assertDeprecated(unauth);
  });
});
