// The other direction of answers.test.ts: every error code the schemas of
// test/shared/handler-answers.ts allow on a route, the real handler answers on that route,
// each provoked the way it happens (a page's mistake, a merchant's hook, the card-testing
// limits, the provider failing or answering something unsafe: test/node/support/
// faulty-provider.ts). So a browser test cannot give the widget a code the route never sends,
// and the schemas list no code the handler has stopped sending. Every answer met on the way is
// checked against the schemas too (its Retry-After included).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { HandlerErrorCode } from '../../../src/domain/errors.ts';
import type { Sandbox } from '../../../src/sandbox/index.ts';
import type { PaymentHandler } from '../../../src/server/index.ts';
import { notAHandlerAnswer, ROUTES } from '../../shared/handler-answers.ts';
import { cardBody } from '../support/cards.ts';
import {
  FAULTS,
  type Fault,
  faultyProvider,
  OUTCOME_LOST,
  UNSAFE_STEP,
} from '../support/faulty-provider.ts';
import { createCheckout, makeHandler, request, startSandbox } from './fixtures.ts';

/**
 * The codes no request can make a route answer here, and why: a 500 `INTERNAL` is a bug's (or
 * a throwing hook's) answer, and on these routes no merchant's hook runs and the store's
 * failures are caught (the handler keeps taking payments while its store is down).
 */
const NOT_PRODUCED: Record<string, HandlerErrorCode[]> = {
  'POST /checkouts/:id/retry': ['INTERNAL'],
  'GET /checkouts/:id': ['INTERNAL'],
  'GET /payment-methods': ['INTERNAL'],
};

const SAVED = 'cus_codes';
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

let sb: Sandbox;
before(async () => {
  sb = await startSandbox();
});
after(async () => {
  await sb.close();
});

/** Each route's error codes seen so far. */
const seen = new Map<string, Set<string>>(ROUTES.map((r) => [r.name, new Set()]));

interface Ask {
  body?: unknown;
  raw?: string;
  origin?: string | null;
  contentType?: string | null;
}

/**
 * Calls `handle`; fails naming the route when the answer is not one the schemas allow, and
 * counts the error code it answered on its route. Resolves with the status and body.
 */
async function ask(handle: PaymentHandler, method: string, path: string, options: Ask = {}) {
  const res = await handle(request(method, path, options));
  const body = (await res.json()) as { error?: { code: string } } & Record<string, unknown>;
  const route = path.split('?')[0] ?? path;
  assert.equal(notAHandlerAnswer(method, route, res.status, body, res.headers), undefined);
  const name = ROUTES.find((r) => r.method === method && r.path.test(route))?.name ?? '';
  if (body.error) seen.get(name)?.add(body.error.code);
  return { status: res.status, body };
}

/** `ask`, and the code it answered (undefined for a success). */
const codeOf = async (...args: Parameters<typeof ask>) => (await ask(...args)).body.error?.code;

/** A pending checkout of its own (each payment attempt below spends one). */
const fresh = async (handle: PaymentHandler) =>
  (await createCheckout({ handle, paid: [], failed: [], logs: [] })).id;

test('a page’s mistakes and the merchant’s refusals, route by route', async () => {
  const h = makeHandler(sb, {
    authorizeCustomer: (_, id) => id === SAVED,
    maxBodyBytes: 1_024,
  });
  const { handle } = h;
  const id = await fresh(handle);
  const big = { order: { note: 'x'.repeat(2_000) } };
  for (const path of ['/checkouts', `/checkouts/${id}`]) {
    const method = path === '/checkouts' ? 'POST' : 'PUT';
    const body = method === 'POST' ? { order: { sku: 'tea' } } : cardBody('4200000000000091');
    assert.equal(await codeOf(handle, method, path, { body, origin: null }), 'FORBIDDEN_ORIGIN');
    assert.equal(
      await codeOf(handle, method, path, { raw: '{}', contentType: 'text/plain' }),
      'UNSUPPORTED_MEDIA_TYPE',
    );
    assert.equal(await codeOf(handle, method, path, { body: big }), 'PAYLOAD_TOO_LARGE');
    assert.equal(await codeOf(handle, method, path, { raw: '{' }), 'INVALID_JSON');
    assert.equal(await codeOf(handle, method, path, { body: {} }), 'MISSING');
  }
  assert.equal(await codeOf(handle, 'POST', '/checkouts', { body: { order: 'nope' } }), 'INVALID');
  assert.equal(
    await codeOf(handle, 'POST', `/checkouts/${id}/retry`, { origin: null }),
    'FORBIDDEN_ORIGIN',
  );
  assert.equal(await codeOf(handle, 'POST', '/checkouts/a!b/retry'), 'INVALID');
  assert.equal(await codeOf(handle, 'POST', `/checkouts/${UNKNOWN_ID}/retry`), 'NOT_FOUND');
  assert.equal(await codeOf(handle, 'POST', `/checkouts/${id}/retry`), 'CONFLICT');
  assert.equal(await codeOf(handle, 'GET', '/checkouts/a!b'), 'INVALID');
  assert.equal(await codeOf(handle, 'GET', `/checkouts/${UNKNOWN_ID}`), 'NOT_FOUND');
  const card = cardBody('4200000000000091');
  assert.equal(await codeOf(handle, 'PUT', '/checkouts/a!b', { body: card }), 'INVALID');
  assert.equal(
    await codeOf(handle, 'PUT', `/checkouts/${id}`, { body: cardBody('4200000000000092') }),
    'INVALID',
  );
  assert.equal(
    await codeOf(handle, 'PUT', `/checkouts/${UNKNOWN_ID}`, { body: card }),
    'NOT_FOUND',
  );
  const someoneElses = { payment_type: 'card', token: 'tok_1', customer_id: 'cus_other' };
  assert.equal(
    await codeOf(handle, 'PUT', `/checkouts/${id}`, { body: someoneElses }),
    'FORBIDDEN',
  );
  assert.equal((await ask(handle, 'PUT', `/checkouts/${id}`, { body: card })).status, 200);
  assert.equal(
    await codeOf(handle, 'PUT', `/checkouts/${id}`, { body: card }),
    'CHECKOUT_PROCESSED',
  );
  // Deactivated by the merchant's server (the basket changed): the provider's conflict.
  const gone = await fresh(handle);
  const deactivated = await fetch(new URL(`/v0.1/checkouts/${gone}`, sb.url), {
    method: 'DELETE',
    headers: { authorization: `Bearer ${sb.apiKey}` },
  });
  assert.equal(deactivated.status, 200);
  assert.equal(await codeOf(handle, 'PUT', `/checkouts/${gone}`, { body: card }), 'CONFLICT');
  assert.equal(await codeOf(handle, 'GET', '/payment-methods?amount=ten'), 'INVALID');
  const cards = (customer: string) => `/customers/${customer}/payment-instruments`;
  assert.equal(await codeOf(handle, 'GET', cards('a b')), 'INVALID');
  assert.equal(await codeOf(handle, 'GET', cards('cus_other')), 'FORBIDDEN');
  assert.equal(await codeOf(handle, 'GET', cards(SAVED)), 'NOT_FOUND');
});

test('the card-testing limits: 429 with Retry-After on creating, retrying and paying', async () => {
  const { handle } = makeHandler(sb, {
    rateLimit: {
      // Called in process, with no socket: the client's address is given.
      clientAddress: () => '192.0.2.7',
      checkoutsPerClient: { limit: 2, windowMs: 60_000 },
      paymentsPerCheckout: { limit: 1, windowMs: 60_000 },
    },
  });
  const declined = await fresh(handle);
  const card = cardBody('4200000000000091');
  assert.equal((await ask(handle, 'PUT', `/checkouts/${declined}`, { body: card })).status, 200);
  assert.equal(
    await codeOf(handle, 'PUT', `/checkouts/${declined}`, { body: card }),
    'TOO_MANY_REQUESTS',
  );
  const order = { order: { sku: 'declined' } };
  const failed = (await ask(handle, 'POST', '/checkouts', { body: order })).body.id as string;
  assert.equal(
    (await ask(handle, 'PUT', `/checkouts/${failed}`, { body: card })).body.status,
    'FAILED',
  );
  assert.equal(await codeOf(handle, 'POST', '/checkouts', { body: order }), 'TOO_MANY_REQUESTS');
  assert.equal(await codeOf(handle, 'POST', `/checkouts/${failed}/retry`), 'TOO_MANY_REQUESTS');
});

test('an amount off the cent is the merchant’s to round: refused, logged with its value, never sent', async () => {
  const unit = 0.1;
  const h = makeHandler(sb, {
    // A price times a quantity in floating point: 0.30000000000000004, shown as €0.30.
    resolveCheckout: (order) => ({
      amount: unit * Number((order as { qty: number }).qty),
      currency: 'EUR',
    }),
  });
  const created = await ask(h.handle, 'POST', '/checkouts', { body: { order: { qty: 3 } } });
  assert.equal(created.status, 500);
  assert.equal(created.body.error?.code, 'INVALID_RESOLVED_CHECKOUT');
  const logged = h.logs.find((line) =>
    line.includes('resolveCheckout returned an invalid checkout'),
  );
  assert.match(
    logged ?? '',
    /amount must have at most 2 decimal places in EUR \(not 0\.30000000000000004\)/,
  );
  assert.match(logged ?? '', /"field":"amount"/);
  // Rounded to the cent, the same order is priced.
  const rounded = makeHandler(sb, {
    resolveCheckout: (order) => ({
      amount: Math.round(unit * Number((order as { qty: number }).qty) * 100) / 100,
      currency: 'EUR',
    }),
  });
  const fine = await ask(rounded.handle, 'POST', '/checkouts', { body: { order: { qty: 3 } } });
  assert.equal(fine.status, 201);
  assert.equal(fine.body.amount, 0.3);
});

test('the merchant’s hooks: an order that cannot be priced, and hooks that throw', async () => {
  const priced = makeHandler(sb, {
    resolveCheckout: () => ({ amount: -5, currency: 'EUR' }),
  });
  const order = { body: { order: { sku: 'tea' } } };
  assert.equal(
    await codeOf(priced.handle, 'POST', '/checkouts', order),
    'INVALID_RESOLVED_CHECKOUT',
  );
  const broken = makeHandler(sb, {
    resolveCheckout: () => {
      throw new Error('the catalogue is down');
    },
    authorizeCustomer: () => {
      throw new Error('the session store is down');
    },
  });
  assert.equal(await codeOf(broken.handle, 'POST', '/checkouts', order), 'INTERNAL');
  const id = await fresh(makeHandler(sb).handle);
  const token = { payment_type: 'card', token: 'tok_1', customer_id: SAVED };
  assert.equal(await codeOf(broken.handle, 'PUT', `/checkouts/${id}`, { body: token }), 'INTERNAL');
  assert.equal(
    await codeOf(broken.handle, 'GET', `/customers/${SAVED}/payment-instruments`),
    'INTERNAL',
  );
});

test('the provider failing, on every route that calls it', async () => {
  const provider = faultyProvider();
  const { handle } = makeHandler(sb, {
    provider: { fetch: provider.fetch, retries: 0 },
    authorizeCustomer: (_, id) => id === SAVED,
    rateLimit: false,
  });
  const failed = await createCheckout(
    { handle, paid: [], failed: [], logs: [] },
    { sku: 'declined' },
  );
  await ask(handle, 'PUT', `/checkouts/${failed.id}`, { body: cardBody('4200000000000091') });
  const during = async (fault: Fault, call: () => Promise<string | undefined>) => {
    provider.set(fault);
    try {
      return await call();
    } finally {
      provider.set(undefined);
    }
  };
  for (const [code, fault] of Object.entries(FAULTS)) {
    const card = cardBody('4200000000000091');
    const pending = await fresh(handle);
    const calls: [string, () => Promise<string | undefined>, Fault][] = [
      [
        'POST /checkouts',
        () => codeOf(handle, 'POST', '/checkouts', { body: { order: { sku: 'tea' } } }),
        fault,
      ],
      ['retry', () => codeOf(handle, 'POST', `/checkouts/${failed.id}/retry`), fault],
      ['GET', () => codeOf(handle, 'GET', `/checkouts/${pending}`), fault],
      // Only the payment fails: the read-back that follows a lost answer finds it untouched.
      [
        'PUT',
        () => codeOf(handle, 'PUT', `/checkouts/${pending}`, { body: card }),
        { ...fault, method: 'PUT' },
      ],
      ['methods', () => codeOf(handle, 'GET', '/payment-methods'), fault],
      ['cards', () => codeOf(handle, 'GET', `/customers/${SAVED}/payment-instruments`), fault],
    ];
    for (const [what, call, applied] of calls) {
      assert.equal(await during(applied, call), code, `${what} with the provider's ${code}`);
    }
  }
  const lost = await fresh(handle);
  const card = cardBody('4200000000000091');
  assert.equal(
    await during(OUTCOME_LOST, () => codeOf(handle, 'PUT', `/checkouts/${lost}`, { body: card })),
    'PROCESS_OUTCOME_UNKNOWN',
  );
  const challenged = await fresh(handle);
  assert.equal(
    await during(UNSAFE_STEP, () =>
      codeOf(handle, 'PUT', `/checkouts/${challenged}`, { body: cardBody('4200000000000042') }),
    ),
    'UNSAFE_NEXT_STEP',
  );
});

test('a basket that keeps changing under the request: 409 CONFLICT', async () => {
  // Every creation finds the reference taken, and the provider's list never shows who took it.
  const provider = faultyProvider();
  const { handle } = makeHandler(sb, {
    provider: { fetch: provider.fetch, retries: 0 },
    resolveCheckout: () => ({ amount: 10, currency: 'EUR', reference: 'basket-in-a-race' }),
  });
  provider.set({
    method: 'POST',
    answer: () =>
      new Response(JSON.stringify({ error_code: 'DUPLICATED_CHECKOUT', message: 'taken' }), {
        status: 409,
        headers: { 'content-type': 'application/json' },
      }),
  });
  assert.equal(await codeOf(handle, 'POST', '/checkouts', { body: { order: {} } }), 'CONFLICT');
});

test('every code the schemas allow on a route was answered there', () => {
  const missing = ROUTES.flatMap((route) =>
    route.errors
      .filter((code) => !(NOT_PRODUCED[route.name] ?? []).includes(code))
      .filter((code) => !seen.get(route.name)?.has(code))
      .map((code) => `${route.name} ${code}`),
  );
  assert.deepEqual(missing, [], 'codes the schemas allow that the handler did not answer');
  const extra = ROUTES.flatMap((route) =>
    [...(seen.get(route.name) ?? [])]
      .filter((code) => !route.errors.includes(code as HandlerErrorCode))
      .map((code) => `${route.name} ${code}`),
  );
  assert.deepEqual(extra, []);
});
