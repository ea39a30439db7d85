// What a merchant's developer meets when a setting is wrong: every refusal names the value it
// got and the option to change, and without a `logger` the handler says so on the console,
// once a minute per problem however many requests hit it.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Hono } from 'hono';
import type { Sandbox } from '../../../src/sandbox/index.ts';
import {
  createMemoryStore,
  createPaymentHandler,
  type PaymentHandlerOptions,
} from '../../../src/server/index.ts';
import { request, startSandbox } from './fixtures.ts';

let sb: Sandbox;
before(async () => {
  sb = await startSandbox();
});
after(async () => {
  await sb.close();
});

/** A handler as the README's first example makes it: no logger. */
const withoutLogger = (): PaymentHandlerOptions => ({
  provider: { baseUrl: sb.url, apiKey: sb.apiKey, merchantCode: sb.merchantCode },
  publicUrl: 'https://shop.example/payments',
  allowedOrigins: ['https://shop.example'],
  resultPages: { success: '/thanks', failure: '/thanks' },
  resolveCheckout: () => ({ amount: 10, currency: 'EUR' }),
  rateLimit: false,
});

test('a refused origin is named with allowedOrigins, and the console says so once', async (t) => {
  const warned = t.mock.method(console, 'warn', () => {});
  const handler = createPaymentHandler(withoutLogger());
  const viteDev = 'http://localhost:5173';
  for (let i = 0; i < 5; i += 1) {
    const res = await handler(
      request('POST', '/checkouts', { origin: viteDev, body: { order: 'poster' } }),
    );
    assert.equal(res.status, 403);
    const { error } = (await res.json()) as { error: { code: string; message: string } };
    assert.equal(error.code, 'FORBIDDEN_ORIGIN');
    assert.match(error.message, /http:\/\/localhost:5173/);
    assert.match(error.message, /allowedOrigins/);
  }
  const lines = warned.mock.calls.map((call) => String(call.arguments[0]));
  assert.equal(lines.length, 1, lines.join('\n'));
  assert.match(
    lines[0] ?? '',
    /^payment-widget: The origin http:\/\/localhost:5173 .*allowedOrigins/,
  );
});

test('a request with no Origin at all is told which option admits pages', async () => {
  const handler = createPaymentHandler({ ...withoutLogger(), logger: () => {} });
  const res = await handler(request('POST', '/checkouts', { origin: null, body: { order: 'x' } }));
  assert.equal(res.status, 403);
  assert.match(
    ((await res.json()) as { error: { message: string } }).error.message,
    /allowedOrigins/,
  );
});

test('an unknown route names the routes; a request outside basePath names basePath, or the mount that cut it off', async (t) => {
  const warned = t.mock.method(console, 'warn', () => {});
  const handler = createPaymentHandler(withoutLogger());
  const typo = await handler(request('POST', '/checkout', { body: {} }));
  assert.equal(typo.status, 404);
  // Every route there is, the saved cards' included.
  assert.equal(
    ((await typo.json()) as { error: { message: string } }).error.message,
    'No payment route POST /payments/checkout: the routes are /payments/checkouts, /payments/payment-methods, /payments/customers, /payments/return, /payments/webhook and /payments/reports',
  );
  const elsewhere = await handler(new Request('http://127.0.0.1/api/payments/checkouts'));
  assert.equal(elsewhere.status, 404);
  assert.match(
    ((await elsewhere.json()) as { error: { message: string } }).error.message,
    /outside its basePath \/payments: set basePath/,
  );
  // A mount that strips its prefix (Elysia's mount('/payments', ...), Hono's app.mount() or
  // mount() by default): basePath cannot follow it.
  const cut = await handler(new Request('http://127.0.0.1/checkouts/abc', { method: 'PUT' }));
  assert.equal(cut.status, 404);
  assert.match(
    ((await cut.json()) as { error: { message: string } }).error.message,
    /got \/checkouts\/abc: a mount cut \/payments off .*Hono's without replaceRequest: false\); route \/payments\/\* to it whole/,
  );
  // A route the old list left out (the saved cards') is cut off the same way.
  const cards = await handler(new Request('http://127.0.0.1/customers/cus_1/payment-instruments'));
  assert.match(
    ((await cards.json()) as { error: { message: string } }).error.message,
    /a mount cut \/payments off/,
  );
  // Three problems, one line each: the same one again is not logged again.
  assert.equal(warned.mock.callCount(), 3);
});

test('a body the app read before handing the request on is named, not called cut short', async (t) => {
  const errors = t.mock.method(console, 'error', () => {});
  const handler = createPaymentHandler(withoutLogger());
  for (const [method, path] of [
    ['POST', '/checkouts'],
    ['POST', '/webhook'],
  ] as const) {
    // As Elysia hands on a route's request once it parsed `body` for the route.
    const read = request(method, path, { body: { order: 'poster', id: 'x' } });
    await read.text();
    const res = await handler(read);
    assert.equal(res.status, 500);
    const { error } = (await res.json()) as { error: { code: string; message: string } };
    assert.equal(error.code, 'INTERNAL');
    assert.match(error.message, /read before the payment handler: .*Elysia/);
  }
  // One problem, one line.
  assert.equal(errors.mock.callCount(), 1);
});

test("a Hono app whose middleware read the body is told so in Hono's words", async (t) => {
  t.mock.method(console, 'error', () => {});
  const payments = createPaymentHandler(withoutLogger());
  const app = new Hono();
  app.use(async (c, next) => {
    if (c.req.header('content-type')?.startsWith('application/json')) await c.req.json();
    await next();
  });
  app.all('/*', (c) => payments(c.req.raw, c.env));
  const res = await app.fetch(
    request('POST', '/checkouts', { origin: 'https://shop.example', body: { order: 'poster' } }),
  );
  assert.equal(res.status, 500);
  const { error } = (await res.json()) as { error: { message: string } };
  assert.match(error.message, /read before the payment handler: .*Hono: no c\.req\.json\(\)/);
});

test('with a logger, nothing goes to the console', async (t) => {
  const warned = t.mock.method(console, 'warn', () => {});
  const entries: string[] = [];
  const handler = createPaymentHandler({
    ...withoutLogger(),
    logger: (entry) => entries.push(entry.message),
  });
  await handler(request('POST', '/checkouts', { origin: 'http://localhost:5173', body: {} }));
  assert.equal(warned.mock.callCount(), 0);
  assert.ok(entries.some((m) => m.includes('http://localhost:5173')));
});

test('handlers on memory stores of their own taking turns at one mount are said once; a new one replacing the old is not', async (t) => {
  const warned = t.mock.method(console, 'warn', () => {});
  const options = { ...withoutLogger(), publicUrl: 'https://solid.example/payments' };
  const methods = (handler: ReturnType<typeof createPaymentHandler>) =>
    handler(request('GET', '/payment-methods?amount=10&currency=EUR'));
  // A dev server's reload: the old handler is not called again.
  const before = createPaymentHandler(options);
  await methods(before);
  const reloaded = createPaymentHandler(options);
  for (let i = 0; i < 3; i += 1) await methods(reloaded);
  // A store of their own, given: theirs to share.
  const stored = [createMemoryStore(), createMemoryStore()].map((store) =>
    createPaymentHandler({ ...options, store }),
  );
  for (const handler of [...stored, ...stored]) await methods(handler);
  assert.equal(warned.mock.callCount(), 0);
  // SolidStart: the route file's GET, POST and PUT, a handler each.
  const perMethod = [1, 2, 3].map(() => createPaymentHandler(options));
  for (const handler of [...perMethod, ...perMethod]) await methods(handler);
  const lines = warned.mock.calls.map((call) => String(call.arguments[0]));
  assert.deepEqual(lines, [
    'payment-widget: several payment handlers for https://solid.example/payments answer in this process, each with a memory store of its own, so onPaid runs in each: make one handler, in a module of its own, or give them one store',
  ]);
});

test('a path with a line break or an escape sequence stays one line of the log, the console’s and a logger’s', async (t) => {
  const warned = t.mock.method(console, 'warn', () => {});
  // A line the README's onPaid would print, then an ANSI "erase line".
  const path = '/payments/x%0Apaid:%20order-1%20(checkout%201)%0D%0A%1B[2K%C2%9B2K';
  await createPaymentHandler(withoutLogger())(new Request(`https://shop.example${path}`));
  const entries: string[] = [];
  const logged = createPaymentHandler({
    ...withoutLogger(),
    logger: (e) => entries.push(e.message),
  });
  await logged(new Request(`https://shop.example${path}`));
  const lines = [...warned.mock.calls.map((call) => String(call.arguments[0])), ...entries].filter(
    (line) => line.includes('No payment route'),
  );
  assert.equal(lines.length, 2);
  for (const line of lines) {
    assert.doesNotMatch(line, /\p{Cc}/u);
    assert.match(
      line,
      /No payment route GET \/payments\/x\\u000apaid: order-1 \(checkout 1\)\\u000d\\u000a\\u001b\[2K\\u009b2K: /,
    );
  }
});
