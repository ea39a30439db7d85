// Errors that name the fix, as a merchant's developer meets them: the provider unreachable
// names provider.baseUrl (and, on loopback, how to start the sandbox), a refused key names
// provider.apiKey, on the console as on the merchant's logger. A call that failed before
// anything was sent (connection refused) is PROVIDER_UNREACHABLE and retryable on every
// route, PUT included: the card cannot have been charged. createCheckout() rejects with the
// same typed error the route answers; reconcile(), often a shop's first call, names the
// option too.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Sandbox } from '../../../src/sandbox/index.ts';
import {
  createPaymentHandler,
  PaymentHandlerError,
  type PaymentHandlerOptions,
} from '../../../src/server/index.ts';
import { cardBody } from '../support/cards.ts';
import { makeHandler, request, startSandbox } from './fixtures.ts';

/**
 * A port nothing listens on, below the range servers asking for port 0 are given: a port
 * found free and let go was taken by another suite's server in the same run (seen on Node
 * 22, whose files share processes), which answered 404.
 */
const closed = 'http://127.0.0.1:9';
let sb: Sandbox;
before(async () => {
  sb = await startSandbox();
});
after(() => sb.close());

interface ErrorBody {
  error: { code: string; message: string; retryable: boolean };
}

test('a PUT to a closed port is PROVIDER_UNREACHABLE, retryable, and the log names provider.baseUrl', async () => {
  const h = makeHandler(sb, { provider: { baseUrl: closed } });
  const res = await h.handle(
    request('PUT', '/checkouts/co_1', { body: cardBody('4200000000000091') }),
  );
  assert.equal(res.status, 502);
  const { error } = (await res.json()) as ErrorBody;
  assert.equal(error.code, 'PROVIDER_UNREACHABLE');
  assert.equal(error.retryable, true);
  assert.match(error.message, /ECONNREFUSED.*nothing was sent.*provider\.baseUrl/);
  // The shopper's browser gets the option's name, never the provider's address.
  assert.ok(!error.message.includes(closed), error.message);
  const logged = h.logs.find((line) => line.includes('provider.baseUrl'));
  assert.ok(logged, h.logs.join('\n'));
  assert.ok(logged.includes(closed));
  assert.match(logged, /npx payment-sandbox/);
});

test('every route that calls the provider answers PROVIDER_UNREACHABLE the same way', async () => {
  const h = makeHandler(sb, { provider: { baseUrl: closed } });
  const calls = [
    request('POST', '/checkouts', { body: { order: { sku: 'tea' } } }),
    request('GET', '/checkouts/co_1'),
    request('GET', '/payment-methods?amount=10&currency=EUR'),
  ];
  for (const call of calls) {
    const res = await h.handle(call);
    const { error } = (await res.json()) as ErrorBody;
    assert.equal(error.code, 'PROVIDER_UNREACHABLE', `${call.method} ${call.url}`);
    assert.equal(error.retryable, true);
  }
});

test('without a logger the console says which option to fix, once', async (t) => {
  const errors = t.mock.method(console, 'error', () => {});
  const options: PaymentHandlerOptions = {
    provider: { baseUrl: closed, apiKey: sb.apiKey, merchantCode: sb.merchantCode, retries: 0 },
    publicUrl: 'https://shop.example/payments',
    allowedOrigins: ['https://shop.example'],
    resultPages: { success: '/thanks', failure: '/thanks' },
    resolveCheckout: () => ({ amount: 10, currency: 'EUR' }),
    rateLimit: false,
  };
  const handler = createPaymentHandler(options);
  for (let i = 0; i < 3; i += 1) {
    await handler(request('POST', '/checkouts', { body: { order: 'x' } }));
  }
  const lines = errors.mock.calls.map((call) => String(call.arguments[0]));
  assert.equal(lines.length, 1, lines.join('\n'));
  assert.match(
    lines[0] ?? '',
    /provider\.baseUrl \(http:\/\/127\.0\.0\.1:\d+\).*npx payment-sandbox/,
  );

  const wrongKey = createPaymentHandler({
    ...options,
    provider: { ...options.provider, baseUrl: sb.url, apiKey: 'sk_test_not_this_one' },
  });
  const refused = await wrongKey(request('POST', '/checkouts', { body: { order: 'x' } }));
  assert.equal(refused.status, 401);
  const { error } = (await refused.json()) as ErrorBody;
  assert.equal(error.code, 'NOT_AUTHORIZED');
  assert.match(error.message, /provider\.apiKey/);
  const keyLine = errors.mock.calls.map((call) => String(call.arguments[0])).at(-1) ?? '';
  assert.match(keyLine, /the provider refused the key: check provider\.apiKey/);
  assert.ok(!keyLine.includes('sk_test_not_this_one'), keyLine);
});

test('reconcile() at start, before any payment, names the option to fix: provider.baseUrl, provider.apiKey', async () => {
  const unreachable = makeHandler(sb, { provider: { baseUrl: closed, retries: 0 } });
  assert.equal((await unreachable.handle.reconcile()).errors, 1);
  const where = unreachable.logs.find((line) => line.includes('list could not be read'));
  assert.match(where ?? '', /ECONNREFUSED.*check provider\.baseUrl \(http:\/\/127\.0\.0\.1:9\)/);
  assert.match(where ?? '', /"level":"error"/);
  const wrongKey = makeHandler(sb, { provider: { apiKey: 'sk_test_not_this_one' } });
  assert.equal((await wrongKey.handle.reconcile()).errors, 1);
  const key = wrongKey.logs.find((line) => line.includes('list could not be read'));
  assert.match(key ?? '', /the provider refused the key: check provider\.apiKey/);
  assert.ok(!key?.includes('sk_test_not_this_one'), key);
});

test('createCheckout() rejects with the typed error the route answers', async () => {
  const h = makeHandler(sb, { provider: { baseUrl: closed } });
  const rejected = await h.handle.createCheckout({ amount: 10, currency: 'EUR' }).then(
    () => assert.fail('created'),
    (error: unknown) => error,
  );
  assert.ok(rejected instanceof PaymentHandlerError);
  assert.equal(rejected.code, 'PROVIDER_UNREACHABLE');
  assert.equal(rejected.status, 502);
  assert.equal(rejected.retryable, true);
  assert.match(rejected.message, /provider\.baseUrl/);
  const invalid = await h.handle.createCheckout({ amount: -1, currency: 'EUR' }).catch((e) => e);
  assert.ok(invalid instanceof PaymentHandlerError);
  assert.equal(invalid.code, 'INVALID_RESOLVED_CHECKOUT');
  assert.equal(invalid.retryable, false);
});
