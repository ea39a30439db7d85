import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { AuthErrorSchema, CheckoutSchema } from '../../../src/schemas/index.ts';
import { cardBody } from '../support/cards.ts';
import { checkoutBody, expectValid, type Harness, startSandbox } from './helpers.ts';

let h: Harness;
before(async () => {
  h = await startSandbox({
    restrictedKeys: {
      sk_test_history_only: ['transactions.history'],
      sk_test_payments_only: ['payments'],
    },
  });
});
after(() => h.sandbox.close());

describe('authentication', () => {
  test('no key, a malformed header, an unknown key and a live key are 401 NOT_AUTHORIZED', async () => {
    for (const key of [null, 'sk_test_unknown', 'sk_live_fake']) {
      const res = await h.api('GET', '/v0.1/checkouts', undefined, key);
      h.expectError(res, 401, 'NOT_AUTHORIZED');
      expectValid(AuthErrorSchema, res.body);
    }
    const basic = await fetch(`${h.sandbox.url}/v0.1/checkouts`, {
      headers: { authorization: 'Basic abc' },
    });
    assert.equal(basic.status, 401);
    const live = await h.api('GET', '/v0.1/checkouts', undefined, 'sk_live_fake');
    assert.match((live.body as { message: string }).message, /live/);
  });

  test('a restricted key lacking the scope is 403 FORBIDDEN; with it, it passes', async () => {
    const denied = await h.api('POST', '/v0.1/checkouts', checkoutBody(), 'sk_test_history_only');
    h.expectError(denied, 403, 'FORBIDDEN');
    assert.equal(expectValid(AuthErrorSchema, denied.body).status_code, '403');
    h.expectError(
      await h.api('POST', '/v0.1/customers', { customer_id: 'x' }, 'sk_test_payments_only'),
      403,
      'FORBIDDEN',
    );
    h.expectError(
      await h.api('GET', '/v0.1/me/transactions/history', undefined, 'sk_test_payments_only'),
      403,
      'FORBIDDEN',
    );
    const ok = await h.api('POST', '/v0.1/checkouts', checkoutBody(), 'sk_test_payments_only');
    assert.equal(ok.status, 201);
    const c = expectValid(CheckoutSchema, ok.body);
    // The process route's scope is "not shown" in the seed; the sandbox asks for `payments`.
    h.expectError(
      await h.api(
        'PUT',
        `/v0.1/checkouts/${c.id}`,
        cardBody('4200000000000091'),
        'sk_test_history_only',
      ),
      403,
      'FORBIDDEN',
    );
    const history = await h.api(
      'GET',
      '/v0.1/me/transactions/history',
      undefined,
      'sk_test_history_only',
    );
    assert.equal(history.status, 200);
  });

  test('a restricted key must be a test key', async () => {
    const { createSandbox } = await import('../../../src/sandbox/index.ts');
    await assert.rejects(
      createSandbox({ restrictedKeys: { sk_live_x: ['payments'] } }),
      /sk_test_/,
    );
    await assert.rejects(createSandbox({ apiKey: 'sk_live_x' }), /sk_test_/);
  });
});

describe('routing and bodies', () => {
  test('unknown route 404 NOT_FOUND; wrong method 405 with Allow', async () => {
    h.expectError(await h.api('GET', '/v9/nothing'), 404, 'NOT_FOUND');
    const res = await h.api('PATCH', '/v0.1/checkouts');
    assert.equal(res.status, 405);
    assert.equal(res.headers.get('allow'), 'GET, POST');
  });

  test('a body over 64 KiB is 413, not a crash', async () => {
    const res = await h.api(
      'POST',
      '/v0.1/checkouts',
      checkoutBody({ description: 'x'.repeat(70_000) }),
    );
    h.expectError(res, 413, 'PAYLOAD_TOO_LARGE');
    const huge = await h.api(
      'POST',
      '/v0.1/checkouts',
      checkoutBody({ description: 'x'.repeat(300_000) }),
    );
    assert.equal(huge.status, 413);
    assert.equal((await h.api('GET', '/v0.1/checkouts')).status, 200);
  });

  test('a body that is JSON but not an object is 400', async () => {
    h.expectError(await h.api('POST', '/v0.1/checkouts', '[1,2]'), 400, 'INVALID');
    h.expectError(await h.api('POST', '/v0.1/checkouts', 'null'), 400, 'INVALID');
  });
});

describe('CORS', () => {
  test('the process route answers preflight and carries CORS headers', async () => {
    const c = expectValid(
      CheckoutSchema,
      (await h.api('POST', '/v0.1/checkouts', checkoutBody())).body,
    );
    const pre = await fetch(`${h.sandbox.url}/v0.1/checkouts/${c.id}`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://shop.example',
        'access-control-request-method': 'PUT',
        'access-control-request-headers': 'authorization, content-type',
      },
    });
    assert.equal(pre.status, 204);
    assert.equal(pre.headers.get('access-control-allow-origin'), 'https://shop.example');
    assert.match(pre.headers.get('access-control-allow-methods') ?? '', /PUT/);
    assert.match(pre.headers.get('access-control-allow-headers') ?? '', /authorization/);
    const put = await fetch(`${h.sandbox.url}/v0.1/checkouts/${c.id}`, {
      method: 'PUT',
      headers: {
        origin: 'https://shop.example',
        authorization: `Bearer ${h.sandbox.apiKey}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify(cardBody('4200000000000091')),
    });
    assert.equal(put.status, 200);
    assert.equal(put.headers.get('access-control-allow-origin'), 'https://shop.example');
  });

  test('every other route has no CORS headers and no preflight', async () => {
    const get = await fetch(`${h.sandbox.url}/v0.1/checkouts`, {
      headers: { origin: 'https://shop.example', authorization: `Bearer ${h.sandbox.apiKey}` },
    });
    assert.equal(get.headers.get('access-control-allow-origin'), null);
    const pre = await fetch(`${h.sandbox.url}/v0.1/checkouts`, {
      method: 'OPTIONS',
      headers: { origin: 'https://shop.example', 'access-control-request-method': 'POST' },
    });
    assert.equal(pre.status, 405);
    assert.equal(pre.headers.get('access-control-allow-origin'), null);
  });
});

describe('secrets stay out of the log', () => {
  test('the log never holds a card number, a CVV or the API key', async () => {
    const c = expectValid(
      CheckoutSchema,
      (await h.api('POST', '/v0.1/checkouts', checkoutBody())).body,
    );
    const body = cardBody('4111111111111111');
    const from = h.logs.length;
    await h.api('PUT', `/v0.1/checkouts/${c.id}`, { ...body, card: { ...body.card, cvv: '987' } });
    const log = h.logs.join('\n');
    assert.ok(log.includes(`PUT /v0.1/checkouts/${c.id} 200`));
    assert.ok(!log.includes('4111111111111111'));
    // The CVV as a value of its own: random ids (the checkout's, the request's) can hold the
    // digits 987 by chance, next to letters or digits.
    const logged = h.logs.slice(from).join('\n');
    assert.doesNotMatch(logged, /(^|[^0-9A-Za-z])987([^0-9A-Za-z]|$)/);
    assert.ok(!log.includes(h.sandbox.apiKey));
  });
});
