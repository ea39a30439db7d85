// The handler's options are grouped by concern: an option of the earlier flat shape, or one
// the handler does not know, is refused at start with its name and where it belongs, so a
// merchant's upgrade or typo never turns into a setting silently ignored.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createPaymentHandler, type PaymentHandlerOptions } from '../../../src/server/index.ts';

const grouped: PaymentHandlerOptions = {
  provider: { baseUrl: 'http://127.0.0.1:9', apiKey: 'sk_test_options', merchantCode: 'M1' },
  publicUrl: 'https://shop.example/payments',
  allowedOrigins: ['https://shop.example'],
  resultPages: { success: '/thanks', failure: '/thanks' },
  resolveCheckout: () => ({ amount: 10, currency: 'EUR' }),
};

/** Options as a merchant's JavaScript (or an older TypeScript) might pass them. */
const withExtra = (extra: Record<string, unknown>) =>
  ({ ...grouped, ...extra }) as unknown as PaymentHandlerOptions;

test('each option of the flat shape is refused, naming where it moved', () => {
  const moves: [string, unknown, RegExp][] = [
    ['baseUrl', 'http://127.0.0.1:9', /baseUrl has moved; pass it as provider\.baseUrl/],
    ['apiKey', 'sk_test_x', /apiKey has moved; pass it as provider\.apiKey/],
    ['merchantCode', 'M1', /provider\.merchantCode/],
    ['payToEmail', 'a@b.example', /provider\.payToEmail/],
    ['timeoutMs', 1000, /provider\.timeoutMs/],
    ['retries', 1, /provider\.retries/],
    ['fetch', fetch, /provider\.fetch/],
    ['successUrl', '/ok', /successUrl has moved; pass it as resultPages\.success/],
    ['failureUrl', '/no', /resultPages\.failure/],
    ['pendingUrl', '/wait', /resultPages\.pending/],
    ['onPaid', () => {}, /onPaid has moved; pass it as hooks\.onPaid/],
    ['onFailed', () => {}, /hooks\.onFailed/],
    ['hookTimeoutMs', 5000, /hookTimeoutMs has moved; pass it as hooks\.leaseMs/],
    ['hookWaitMs', 100, /hookWaitMs has moved; pass it as hooks\.waitMs/],
    ['waitUntil', () => {}, /hooks\.waitUntil/],
    ['idempotencyStore', {}, /idempotencyStore has moved; pass it as store/],
  ];
  for (const [name, value, message] of moves) {
    assert.throws(() => createPaymentHandler(withExtra({ [name]: value })), message, name);
  }
});

test('an unknown option, at the top or in a group, is refused by its name', () => {
  assert.throws(
    () => createPaymentHandler(withExtra({ allowedOrigin: ['https://shop.example'] })),
    /unknown option allowedOrigin; the options takes .*allowedOrigins/,
  );
  assert.throws(
    () => createPaymentHandler({ ...grouped, hooks: { leaseMS: 10 } as never }),
    /unknown option hooks\.leaseMS; hooks takes onPaid, onFailed, leaseMs, waitMs, waitUntil/,
  );
  assert.throws(
    () =>
      createPaymentHandler({
        ...grouped,
        provider: { ...grouped.provider, key: 'sk_test_y' } as never,
      }),
    /unknown option provider\.key/,
  );
});

test('a missing group says what it holds', () => {
  const { resultPages: _pages, ...noPages } = grouped;
  assert.throws(
    () => createPaymentHandler(noPages as PaymentHandlerOptions),
    /resultPages is required: \{ success, failure, pending\? \}/,
  );
  const { provider: _provider, ...noProvider } = grouped;
  assert.throws(
    () => createPaymentHandler(noProvider as PaymentHandlerOptions),
    /provider is required: \{ baseUrl, apiKey, merchantCode \}/,
  );
});
