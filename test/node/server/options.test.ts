// The handler's options are grouped by concern: an option the handler does not know, at the
// top or in a group, is refused at start with its name and what that place takes, so a
// merchant's typo never turns into a setting silently ignored.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  createMemoryStore,
  createPaymentHandler,
  type PaymentHandlerOptions,
} from '../../../src/server/index.ts';

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

test('an option of a group given at the top is refused by its name, with the options the top takes', () => {
  for (const [name, value] of [
    ['apiKey', 'sk_test_x'],
    ['onPaid', () => {}],
    ['successUrl', '/ok'],
  ] as const) {
    assert.throws(
      () => createPaymentHandler(withExtra({ [name]: value })),
      new RegExp(`unknown option ${name}; the options takes provider, publicUrl, .*hooks`),
      name,
    );
  }
});

test('an unknown option, at the top or in a group, is refused by its name', () => {
  assert.throws(
    () => createPaymentHandler(withExtra({ allowedOrigin: ['https://shop.example'] })),
    /unknown option allowedOrigin; the options takes .*allowedOrigins/,
  );
  assert.throws(
    () => createPaymentHandler({ ...grouped, hooks: { leaseMS: 10 } as never }),
    /unknown option hooks\.leaseMS; hooks takes onPaid, onFailed, onPageViolation, leaseMs, waitMs, waitUntil/,
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

test('the option mistakes a merchant makes are refused at start, each by its name', () => {
  const mistakes: [string, PaymentHandlerOptions, RegExp][] = [
    [
      'a misspelt limit',
      withExtra({ rateLimit: { checkoutPerClient: 3 } }),
      /unknown option rateLimit\.checkoutPerClient; rateLimit takes checkoutsPerClient, /,
    ],
    [
      'a negative timeout',
      { ...grouped, provider: { ...grouped.provider, timeoutMs: -5 } },
      /provider\.timeoutMs must be a positive number of milliseconds, got -5/,
    ],
    [
      'a body cap that is not a number',
      withExtra({ maxBodyBytes: 'big' }),
      /maxBodyBytes must be a whole number from 1 to \d+, got "big"/,
    ],
    [
      'a script as a result page',
      { ...grouped, resultPages: { success: 'javascript:alert(1)', failure: '/thanks' } },
      /resultPages\.success must be a path \(\/thanks\) or an absolute http\(s\) URL, got "javascript:alert\(1\)"/,
    ],
    [
      'a limit of the wrong shape',
      withExtra({ rateLimit: { paymentsPerCheckout: { limit: 5, window: 1000 } } }),
      /unknown option rateLimit\.paymentsPerCheckout\.window; rateLimit\.paymentsPerCheckout takes limit, windowMs/,
    ],
  ];
  for (const [what, options, message] of mistakes) {
    assert.throws(() => createPaymentHandler(options), message, what);
  }
});

test('every group and sub-option is checked: types, ranges, URLs', () => {
  const refused: [PaymentHandlerOptions, RegExp][] = [
    [
      { ...grouped, provider: { ...grouped.provider, retries: 1.5 } },
      /provider\.retries must be a whole number from 0 to 5/,
    ],
    [
      { ...grouped, provider: { ...grouped.provider, apiKey: '' } },
      /provider\.apiKey must be a non-empty string/,
    ],
    [
      { ...grouped, provider: { ...grouped.provider, baseUrl: 'http://provider.example' } },
      /provider\.baseUrl must use https/,
    ],
    [
      {
        ...grouped,
        provider: { ...grouped.provider, baseUrl: 'https://api.provider.example/v0.1/' },
      },
      /provider\.baseUrl must end before the API's version \(each call adds it: \/v0\.1\/checkouts\), got https:\/\/api\.provider\.example\/v0\.1\//,
    ],
    [
      { ...grouped, provider: { ...grouped.provider, fetch: 'fetch' as never } },
      /provider\.fetch must be a function/,
    ],
    [
      withExtra({ publicUrl: 'shop.example/payments' }),
      /publicUrl must be an absolute http\(s\) URL/,
    ],
    [
      withExtra({ allowedOrigins: ['ftp://shop.example'] }),
      /allowedOrigins\[0\] must be an absolute http\(s\) URL/,
    ],
    [withExtra({ basePath: 'payments' }), /basePath must be a path that starts with \//],
    [
      withExtra({ basePath: '/api/payments' }),
      /basePath must be publicUrl's path, "\/payments" \(its default: leave it out\), or the end of it a gateway passes on, got "\/api\/payments"/,
    ],
    [
      { ...grouped, resultPages: { success: '/ok', failure: '//evil.example/x' } },
      /resultPages\.failure must be a path/,
    ],
    [
      { ...grouped, resultPages: { success: '/ok', failure: '/no', pending: 42 as never } },
      /resultPages\.pending must be a path/,
    ],
    [withExtra({ hooks: { onPaid: 'fulfil' } }), /hooks\.onPaid must be a function/],
    [withExtra({ hooks: { waitMs: '1s' } }), /hooks\.waitMs must be zero or a positive number/],
    [
      withExtra({ rateLimit: { checkoutsPerClient: { windowMs: -1 } } }),
      /rateLimit\.checkoutsPerClient\.windowMs must be a positive number/,
    ],
    [
      withExtra({ rateLimit: { clientAddress: 'x-forwarded-for' } }),
      /rateLimit\.clientAddress must be a function/,
    ],
    [withExtra({ rateLimit: { clientKey: 1 } }), /rateLimit\.clientKey must be a function/],
    [withExtra({ rateLimit: true }), /rateLimit must be \{ checkoutsPerClient, /],
    [withExtra({ logger: console }), /logger must be a function/],
    [withExtra({ authorizeCustomer: true }), /authorizeCustomer must be a function/],
    [withExtra({ store: new Map() }), /store must be a PaymentStore .* it has no claim\(\)/],
    // A store of the earlier names would watch no checkout for reconcile(), without a word.
    [
      withExtra({ store: { ...createMemoryStore(), watch: undefined, track: async () => {} } }),
      /the store's track\(\) is now called watch\(\)/,
    ],
  ];
  for (const [options, message] of refused) {
    assert.throws(() => createPaymentHandler(options), message, String(message));
  }
  // What is right is taken as it is: a full URL as a result page, limits switched off singly.
  assert.doesNotThrow(() =>
    createPaymentHandler({
      ...grouped,
      resultPages: { success: 'https://shop.example/thanks', failure: '/sorry', pending: '/wait' },
      rateLimit: { checkoutsPerClient: false, paymentsPerCheckout: { limit: 3 } },
      maxBodyBytes: 32_768,
      logger: () => {},
    }),
  );
});

test('basePath is the path of publicUrl unless given, or its end; one that disagrees with it is refused', async () => {
  const at = (options: Partial<PaymentHandlerOptions>) =>
    createPaymentHandler({
      ...grouped,
      publicUrl: 'https://shop.example/api/payments',
      ...options,
    });
  const answer = await at({})(new Request('https://shop.example/api/payments/no-such-route'));
  assert.equal(answer.status, 404);
  const { error } = (await answer.json()) as { error: { message: string } };
  assert.match(error.message, /the routes are \/api\/payments\/checkouts, /);
  // Given, it must name the same path (a trailing slash is the same path), or its end: the
  // path left once a gateway in front cut the start off (a REST API's stage).
  at({ basePath: '/api/payments/' });
  at({ basePath: '/payments' });
  for (const basePath of ['/api', '/ments', '/other/payments']) {
    assert.throws(
      () => at({ basePath }),
      /createPaymentHandler: basePath must be publicUrl's path, "\/api\/payments" \(its default: leave it out\), or the end of it a gateway passes on, got "\//,
    );
  }
  // A handler at the root of its own host.
  createPaymentHandler({ ...grouped, publicUrl: 'https://pay.shop.example', basePath: '' });
});

test("a gateway's base URL may end in a version of its own: only the API's /v0.1 doubles", () => {
  for (const baseUrl of ['https://gateway.shop.example/v2', 'https://gateway.shop.example/v1.0/']) {
    assert.doesNotThrow(() =>
      createPaymentHandler({ ...grouped, provider: { ...grouped.provider, baseUrl } }),
    );
  }
});
