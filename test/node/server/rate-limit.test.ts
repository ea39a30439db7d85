// The card-testing defence, end to end: the handler behind toNodeListener on a real socket,
// a real sandbox behind it, and clients at different loopback addresses. Every refusal is a
// 429 TOO_MANY_REQUESTS with Retry-After that never reached the provider (its calls are
// counted through the handler's `fetch`), and only the client over the limit is refused.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { after, before, describe, test } from 'node:test';
import type { Sandbox } from '../../../src/sandbox/index.ts';
import {
  createMemoryStore,
  PaymentHandlerError,
  type PaymentStore,
  RATE_LIMIT_DEFAULTS,
  toNodeListener,
} from '../../../src/server/index.ts';
import { scaled, sleep } from '../../shared/until.ts';
import { cardBody } from '../support/cards.ts';
import { type Answer, type Client, clientAt, countingFetch } from '../support/clients.ts';
import { listenLoopback } from '../support/loopback.ts';
import {
  createCheckout,
  type HandlerOverrides,
  makeHandler,
  ORIGIN,
  request,
  startSandbox,
} from './fixtures.ts';

const THREE_DS_CARD = '4200000000000042';

let sb: Sandbox;
before(async () => {
  sb = await startSandbox();
});
after(async () => {
  await sb.close();
});

interface Served {
  calls: string[];
  logs: string[];
  /** A client at this loopback address (127.0.0.1 unless told). */
  client(address?: string): Client;
  /** Provider calls of one kind: `POST /v0.1/checkouts`, `PUT` of any checkout. */
  creates(): number;
  payments(): number;
}

/** A handler with these options on a real socket; closed with its clients after the test. */
async function serve(
  t: { after(fn: () => Promise<void>): void },
  overrides: HandlerOverrides,
): Promise<Served> {
  const counted = countingFetch();
  const h = makeHandler(sb, { provider: { fetch: counted.fetch }, ...overrides });
  const server = await listenLoopback(createServer(toNodeListener(h.handle)));
  const clients: Client[] = [];
  t.after(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await server.close();
  });
  return {
    calls: counted.calls,
    logs: h.logs,
    client(address = '127.0.0.1') {
      const c = clientAt(address, `${server.url}/payments`, ORIGIN);
      clients.push(c);
      return c;
    },
    creates: () => counted.calls.filter((c) => c === 'POST /v0.1/checkouts').length,
    payments: () => counted.calls.filter((c) => /^PUT \/v0\.1\/checkouts\//.test(c)).length,
  };
}

/** The refusal every limit answers with. */
function assertRefused(answer: Answer, windowMs: number): number {
  assert.equal(answer.status, 429);
  assert.equal(answer.body.error?.code, 'TOO_MANY_REQUESTS');
  assert.equal(answer.body.error?.retryable, false);
  const retryAfter = Number(answer.headers.get('retry-after'));
  assert.ok(
    Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= Math.ceil(windowMs / 1000),
    `Retry-After ${answer.headers.get('retry-after')} is whole seconds within the window`,
  );
  return retryAfter;
}

async function times<T>(n: number, fn: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < n; i += 1) out.push(await fn(i));
  return out;
}

describe('rate limits, from clients at different addresses', () => {
  test('creations beyond the per-client limit get 429 and never reach the provider; another client is unaffected', async (t) => {
    const windowMs = 60_000;
    const s = await serve(t, { rateLimit: { checkoutsPerClient: { limit: 3, windowMs } } });
    const bot = s.client('127.0.0.2');
    const answers = await times(6, () => bot.create());
    assert.deepEqual(
      answers.map((a) => a.status),
      [201, 201, 201, 429, 429, 429],
    );
    for (const refused of answers.slice(3)) assertRefused(refused, windowMs);
    assert.equal(s.creates(), 3, 'the refused creations never reached the provider');

    const shopper = s.client('127.0.0.3');
    assert.equal((await shopper.create()).status, 201);
    assert.equal(s.creates(), 4);
    // One line for the flood, not one per refusal.
    assert.equal(s.logs.filter((l) => l.includes('rate limit checkoutsPerClient')).length, 1);
  });

  test('payment attempts beyond the per-checkout limit get 429 and never reach the provider, whoever sends them', async (t) => {
    const windowMs = 60_000;
    const s = await serve(t, { rateLimit: { paymentsPerCheckout: { limit: 2, windowMs } } });
    const bot = s.client('127.0.0.2');
    const created = await bot.create();
    const id = created.body.id as string;
    // A 3DS card leaves the checkout open (a challenge), so the provider could take more.
    const first = await bot.pay(id, THREE_DS_CARD);
    assert.equal(first.status, 202);
    const second = await bot.pay(id, THREE_DS_CARD);
    assert.notEqual(second.status, 429);
    assert.equal(s.payments(), 2);

    assertRefused(await bot.pay(id, THREE_DS_CARD), windowMs);
    // Another address gets no more attempts on that checkout ...
    const other = s.client('127.0.0.3');
    assertRefused(await other.pay(id), windowMs);
    assert.equal(s.payments(), 2, 'the refused attempts never reached the provider');
    // ... and pays its own as usual.
    const own = await other.create();
    const paid = await other.pay(own.body.id as string);
    assert.equal(paid.status, 200);
    assert.equal(paid.body.status, 'PAID');
  });

  test('payment attempts beyond the per-client limit get 429; another client still pays', async (t) => {
    const windowMs = 60_000;
    const s = await serve(t, { rateLimit: { paymentsPerClient: { limit: 2, windowMs } } });
    const bot = s.client('127.0.0.2');
    const ids = await times(3, async () => (await bot.create()).body.id as string);
    const answers = await times(3, (i) => bot.pay(ids[i] as string));
    assert.deepEqual(
      answers.map((a) => a.status),
      [200, 200, 429],
    );
    assertRefused(answers[2] as Answer, windowMs);
    assert.equal(s.payments(), 2);

    const shopper = s.client('127.0.0.3');
    const paid = await shopper.pay(ids[2] as string);
    assert.equal(paid.status, 200);
    assert.equal(paid.body.status, 'PAID');
    assert.equal(s.payments(), 3);
  });

  test('after the window the client can pay again', async (t) => {
    const windowMs = scaled(1_500);
    const s = await serve(t, { rateLimit: { paymentsPerClient: { limit: 1, windowMs } } });
    const shopper = s.client('127.0.0.2');
    const ids = await times(2, async () => (await shopper.create()).body.id as string);
    // Both at once, so that both are counted in one window however slow the machine is.
    const answers = await Promise.all(ids.map((id) => shopper.pay(id)));
    assert.deepEqual(answers.map((a) => a.status).sort(), [200, 429]);
    const refused = answers.findIndex((a) => a.status === 429);
    // Waiting what Retry-After says (the rest of the window) is enough.
    await sleep(assertRefused(answers[refused]!, windowMs) * 1000);
    const again = await shopper.pay(ids[refused]!);
    assert.equal(again.status, 200);
    assert.equal(again.body.status, 'PAID');
    assert.equal(s.payments(), 2);
  });

  test('an answer that finds the basket’s checkout counts nothing: reloads are never refused, new checkouts still are', async (t) => {
    const windowMs = 60_000;
    const s = await serve(t, {
      rateLimit: { checkoutsPerClient: { limit: 3, windowMs } },
      // The basket is the shop's cookie, as the README's backend keeps it.
      resolveCheckout: (_order, req) => ({
        amount: 10,
        currency: 'EUR',
        reference: /(?:^|; )basket=([\w-]+)/.exec(req.headers.get('cookie') ?? '')?.[1],
      }),
    });
    const developer = s.client('127.0.0.2');
    const reload = () => developer.create(undefined, { cookie: 'basket=b-1' });
    const reloads = await times(10, reload);
    assert.deepEqual(
      [...new Set(reloads.map((a) => a.status))],
      [201, 200],
      'the first made it, every reload found it',
    );
    assert.equal(new Set(reloads.map((a) => a.body.id)).size, 1);
    assert.equal(s.creates(), 1);
    // The same client making new checkouts (a new basket each time, or none) is still held.
    const made = await times(3, (i) =>
      developer.create(undefined, i === 2 ? {} : { cookie: `basket=b-${i + 2}` }),
    );
    assert.deepEqual(
      made.map((a) => a.status),
      [201, 201, 429],
    );
    assertRefused(made[2] as Answer, windowMs);
    assert.equal(s.creates(), 3, 'the refused one never reached the provider');
    // Over the limit, the basket's own checkout is still answered.
    const again = await reload();
    assert.equal(again.status, 200);
    assert.equal(again.body.id, reloads[0]?.body.id);
  });

  test('the limits are on by default', async (t) => {
    const s = await serve(t, {});
    const { limit, windowMs } = RATE_LIMIT_DEFAULTS.checkoutsPerClient;
    const bot = s.client('127.0.0.2');
    const answers = await times(limit + 1, () => bot.create());
    assert.deepEqual(
      answers.map((a) => a.status),
      [...Array(limit).fill(201), 429],
    );
    assertRefused(answers[limit] as Answer, windowMs);
    assert.equal(s.creates(), limit);
  });

  test('rateLimit: false switches every limit off, and false for one limit only that one', async (t) => {
    const off = await serve(t, { rateLimit: false });
    const bot = off.client('127.0.0.2');
    const answers = await times(RATE_LIMIT_DEFAULTS.checkoutsPerClient.limit + 2, () =>
      bot.create(),
    );
    assert.ok(answers.every((a) => a.status === 201));

    const partly = await serve(t, {
      rateLimit: { checkoutsPerClient: false, paymentsPerClient: { limit: 1 } },
    });
    const other = partly.client('127.0.0.2');
    const ids = await times(3, async () => (await other.create()).body.id as string);
    assert.equal((await other.pay(ids[0] as string)).status, 200);
    assertRefused(
      await other.pay(ids[1] as string),
      RATE_LIMIT_DEFAULTS.paymentsPerClient.windowMs,
    );
  });

  test('clientKey counts by the merchant’s key (a session), and by address when it has none', async (t) => {
    const s = await serve(t, {
      rateLimit: {
        checkoutsPerClient: { limit: 1 },
        clientKey: (req) => /(?:^|; )session=(\w+)/.exec(req.headers.get('cookie') ?? '')?.[1],
      },
    });
    const c = s.client('127.0.0.2');
    const as = (session: string) => ({ cookie: `session=${session}` });
    assert.equal((await c.create(undefined, as('alice'))).status, 201);
    assert.equal((await c.create(undefined, as('alice'))).status, 429);
    assert.equal((await c.create(undefined, as('bob'))).status, 201);
    // No session: the address's own count, which the sessions did not use up.
    assert.equal((await c.create()).status, 201);
    assert.equal((await c.create()).status, 429);
  });

  test('trustedProxies: the client is the address one hop back in X-Forwarded-For, what it wrote itself is ignored', async (t) => {
    const s = await serve(t, {
      rateLimit: { checkoutsPerClient: { limit: 1 }, trustedProxies: 1 },
    });
    // Every request arrives from the proxy (127.0.0.1), which appends its client's address.
    const proxy = s.client();
    const from = (chain: string) => proxy.create(undefined, { 'x-forwarded-for': chain });
    assert.equal((await from('203.0.113.5')).status, 201);
    assert.equal((await from('203.0.113.5')).status, 429);
    assert.equal((await from('198.51.100.7')).status, 201);
    // A client that writes its own header gets the proxy's address appended after it.
    assert.equal((await from('192.0.2.99, 203.0.113.5')).status, 429);
    // IPv6 clients count by their /64.
    assert.equal((await from('2001:db8:1:2::1')).status, 201);
    assert.equal((await from('2001:db8:1:2:ffff::7')).status, 429);
    assert.equal((await from('2001:db8:1:3::1')).status, 201);
  });

  test('a 429 to an allowed page on another origin exposes Retry-After to it', async (t) => {
    const s = await serve(t, { rateLimit: { checkoutsPerClient: { limit: 1 } } });
    const c = s.client('127.0.0.2');
    await c.create();
    const refused = await c.create();
    assert.equal(refused.status, 429);
    assert.equal(refused.headers.get('access-control-allow-origin'), ORIGIN);
    assert.equal(refused.headers.get('access-control-expose-headers'), 'retry-after');
  });
});

describe('rate limits without an address, and with a store that cannot count', () => {
  test('with no address known the per-client limits are skipped with one warning; the per-checkout limit holds', async () => {
    const counted = countingFetch();
    const h = makeHandler(sb, {
      provider: { fetch: counted.fetch },
      rateLimit: { checkoutsPerClient: { limit: 1 }, paymentsPerCheckout: { limit: 1 } },
    });
    // Called directly, as a runtime that passes no address would.
    const ids = await times(3, async () => (await createCheckout(h)).id);
    const warnings = h.logs.filter((l) => l.includes('client address of a request is unknown'));
    assert.equal(warnings.length, 1);
    // A framework on Bun that calls the handler itself (Elysia) has the server to hand on.
    assert.match(
      warnings[0] as string,
      /beside the request \(Elysia: payments\(request, server\); Hono: payments\(c\.req\.raw, c\.env\)\)/,
    );
    const pay = (id: string) =>
      h.handle(request('PUT', `/checkouts/${id}`, { body: cardBody(THREE_DS_CARD) }));
    assert.equal((await pay(ids[0] as string)).status, 202);
    const refused = await pay(ids[0] as string);
    assert.equal(refused.status, 429);
    assert.ok(refused.headers.get('retry-after'));
    assert.equal(counted.calls.filter((c) => c.startsWith('PUT')).length, 1);
  });

  test('a clientAddress that answers nothing is named in the warning, not suggested', async () => {
    // As under react-router-serve reached with no proxy: the X-Forwarded-For read is absent.
    const h = makeHandler(sb, {
      rateLimit: {
        clientAddress: (r) => r.headers.get('x-forwarded-for')?.split(',').at(-1)?.trim(),
      },
    });
    await times(2, () => createCheckout(h));
    const warnings = h.logs.filter((l) => l.includes('per-client limits are not applied'));
    assert.equal(warnings.length, 1, h.logs.join('\n'));
    assert.match(warnings[0] ?? '', /rateLimit\.clientAddress answered no address/);
    assert.doesNotMatch(warnings[0] ?? '', /pass rateLimit\.clientAddress/);
  });

  test('a Node request handed on whose socket has no address is said so, not told to hand it on', async () => {
    // As under Analog's vite dev: Nitro's worker takes requests on a Unix socket, whose
    // remoteAddress is undefined, and the route hands on { incoming } as the docs say.
    const h = makeHandler(sb);
    const env = { incoming: { socket: { remoteAddress: undefined } } };
    const post = () =>
      h.handle(request('POST', '/checkouts', { body: { order: { sku: 'tea' } } }), env);
    assert.equal((await post()).status, 201);
    assert.equal((await post()).status, 201);
    const warnings = h.logs.filter((l) => l.includes('per-client limits are not applied'));
    assert.equal(warnings.length, 1, h.logs.join('\n'));
    assert.match(warnings[0] ?? '', /handed with it has none on its socket \(a Unix socket/);
    assert.doesNotMatch(warnings[0] ?? '', /hand the handler what toNodeListener/);
  });

  test('a store whose hit() fails: the limits hold in this instance, and the failure is logged', async (t) => {
    const memory = createMemoryStore();
    const failing: PaymentStore = {
      ...memory,
      hit: async () => {
        throw new Error('Redis is not connected');
      },
    };
    const s = await serve(t, {
      store: failing,
      rateLimit: { checkoutsPerClient: { limit: 1 } },
    });
    const c = s.client('127.0.0.2');
    assert.equal((await c.create()).status, 201);
    assert.equal((await c.create()).status, 429);
    assert.equal(s.logs.filter((l) => l.includes('the store failed')).length, 1);
  });

  test('a store without hit(): counted in this instance, and said so once', async (t) => {
    const { hit: _unused, ...withoutHit } = createMemoryStore();
    const s = await serve(t, {
      store: withoutHit,
      rateLimit: { checkoutsPerClient: { limit: 1 } },
    });
    const c = s.client('127.0.0.2');
    assert.equal((await c.create()).status, 201);
    assert.equal((await c.create()).status, 429);
    assert.equal(s.logs.filter((l) => l.includes('has no hit()')).length, 1);
  });

  test('a TOO_MANY_REQUESTS a merchant’s hook throws without Retry-After gets one', async (t) => {
    const s = await serve(t, {
      resolveCheckout() {
        throw new PaymentHandlerError(429, 'TOO_MANY_REQUESTS', 'One order a minute');
      },
    });
    const refused = await s.client('127.0.0.2').create();
    assertRefused(refused, 60_000);
    assert.equal(refused.headers.get('retry-after'), '60');
    assert.equal(s.creates(), 0);
  });

  test('bad limits are refused when the handler is made', () => {
    assert.throws(
      () => makeHandler(sb, { rateLimit: { checkoutsPerClient: { limit: 0 } } }),
      /checkoutsPerClient\.limit/,
    );
    assert.throws(
      () => makeHandler(sb, { rateLimit: { paymentsPerClient: { windowMs: Number.NaN } } }),
      /paymentsPerClient\.windowMs/,
    );
    assert.throws(() => makeHandler(sb, { rateLimit: { trustedProxies: -1 } }), /trustedProxies/);
    assert.throws(() => makeHandler(sb, { rateLimit: { ipv6Prefix: 129 } }), /ipv6Prefix/);
  });
});
