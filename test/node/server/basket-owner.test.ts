// "Try another card" acts only for the basket's own shopper. A result page's link
// (`/result?checkout_id=`) travels in history, Referer headers and analytics; whoever opens
// it gets the button, and `POST /checkouts/:id/retry` used to make (or answer) the next
// checkout of the link's basket for anyone: a stranger then held the owner's open checkout,
// could leave a 3DS challenge on it that the owner's page resumed, or fail it. The merchant
// says who the basket's shopper is (`authorizeBasket`), as it does for customers.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { Sandbox } from '../../../src/sandbox/index.ts';
import type { Checkout } from '../../../src/schemas/index.ts';
import {
  createMemoryStore,
  createProviderClient,
  type RecordStore,
} from '../../../src/server/index.ts';
import { cardBody } from '../support/cards.ts';
import { createCheckout, type Harness, makeHandler, request, startSandbox } from './fixtures.ts';

let sb: Sandbox;
before(async () => {
  sb = await startSandbox();
});
after(async () => {
  await sb.close();
});

/** The basket a request's cookie names, as the README's shop keeps it. */
const basketOf = (r: Request) => /basket=([\w-]+)/.exec(r.headers.get('cookie') ?? '')?.[1];

function call(method: string, path: string, basket: string, body?: unknown): Request {
  const r = request(method, path, body === undefined ? {} : { body });
  r.headers.set('cookie', `basket=${basket}`);
  return r;
}

test("a stranger's retry of someone else's failed checkout is 403 naming id; the owner's makes the next", async () => {
  const h = makeHandler(sb, {
    resolveCheckout: (_order, r) => ({
      amount: 11,
      currency: 'EUR',
      reference: `o-${basketOf(r)}`,
    }),
    authorizeBasket: (r, reference) => reference === `o-${basketOf(r)}`,
  });
  const owner = `owner-${process.pid}`;
  const made = await h.handle(call('POST', '/checkouts', owner, { order: {} }));
  const { id } = (await made.json()) as { id: string };
  // 11.00 is declined, whatever the card.
  const failed = await h.handle(
    call('PUT', `/checkouts/${id}`, owner, cardBody('4200000000000091')),
  );
  assert.equal(((await failed.json()) as { status: string }).status, 'FAILED');

  const stranger = await h.handle(
    call('POST', `/checkouts/${id}/retry`, `stranger-${process.pid}`),
  );
  assert.equal(stranger.status, 403);
  const { error } = (await stranger.json()) as { error: { code: string; field: string } };
  assert.deepEqual([error.code, error.field], ['FORBIDDEN', 'id']);
  // Nothing was made for the owner's basket.
  const provider = createProviderClient({ baseUrl: sb.url, apiKey: sb.apiKey });
  assert.deepEqual(await provider.checkouts.list({ checkout_reference: `o-${owner}~2` }), []);

  const mine = await h.handle(call('POST', `/checkouts/${id}/retry`, owner));
  assert.equal(mine.status, 201);
  assert.equal(
    ((await mine.json()) as { checkout_reference: string }).checkout_reference,
    `o-${owner}~2`,
  );
});

// A checkout made without a `reference` names no basket of the merchant's: the handler named
// it (a random UUID), so there is no shopper for `authorizeBasket` to recognise. The handler
// remembers which baskets it named in the store's records; a reference says nothing (the
// merchant may return any string, a UUID too), and where the record cannot be read the
// merchant is asked.
describe("authorizeBasket is asked only about the merchant's baskets", () => {
  /** An `authorizeBasket` that refuses everyone, and the references it was asked about. */
  function refuser() {
    const asked: string[] = [];
    const authorizeBasket = (_r: Request, reference: string) => {
      asked.push(reference);
      return false;
    };
    return { asked, authorizeBasket };
  }

  /** A checkout of `h` for the catalogue's declined order (no reference), failed. */
  async function failed(h: Harness): Promise<Checkout & { id: string }> {
    const checkout = await createCheckout(h, { sku: 'declined' });
    const paid = await h.handle(
      request('PUT', `/checkouts/${checkout.id}`, { body: cardBody('4200000000000091') }),
    );
    assert.equal(((await paid.json()) as { status: string }).status, 'FAILED');
    return checkout;
  }

  const retry = (h: Harness, id: string) => h.handle(request('POST', `/checkouts/${id}/retry`, {}));

  test('a checkout made without a reference: its retry makes the next one, nobody asked', async () => {
    const { asked, authorizeBasket } = refuser();
    const h = makeHandler(sb, { authorizeBasket });
    const first = await failed(h);
    const next = await retry(h, first.id);
    assert.equal(next.status, 201);
    const made = (await next.json()) as Checkout & { id: string };
    assert.equal(made.checkout_reference, `${first.checkout_reference}~2`);
    // Its next failure too: the basket stays the handler's.
    const again = await h.handle(
      request('PUT', `/checkouts/${made.id}`, { body: cardBody('4200000000000091') }),
    );
    assert.equal(((await again.json()) as { status: string }).status, 'FAILED');
    assert.equal((await retry(h, made.id)).status, 201);
    assert.deepEqual(asked, []);
  });

  test("a merchant's reference shaped like the handler's own (a UUID) is still asked: 403", async () => {
    const { asked, authorizeBasket } = refuser();
    const reference = randomUUID();
    const h = makeHandler(sb, {
      authorizeBasket,
      resolveCheckout: () => ({ amount: 11, currency: 'EUR', reference }),
    });
    const first = await failed(h);
    const refused = await retry(h, first.id);
    assert.equal(refused.status, 403);
    assert.equal(((await refused.json()) as { error: { field: string } }).error.field, 'id');
    assert.deepEqual(asked, [reference]);
  });

  test('instances sharing a store know the handler named the basket; one that cannot tell asks', async () => {
    const store = createMemoryStore();
    const { asked, authorizeBasket } = refuser();
    const first = await failed(makeHandler(sb, { authorizeBasket, store }));
    // Another instance on the same store.
    assert.equal((await retry(makeHandler(sb, { authorizeBasket, store }), first.id)).status, 201);
    assert.deepEqual(asked, []);
    // One with its own memory: it cannot tell whose basket this is, so the merchant decides.
    const alone = await retry(makeHandler(sb, { authorizeBasket }), first.id);
    assert.equal(alone.status, 403);
    assert.deepEqual(asked, [first.checkout_reference]);
  });

  test('with the store away, the merchant is asked', async () => {
    const memory = createMemoryStore();
    let away = false;
    const reach = <T>(answer: () => Promise<T>) =>
      away ? Promise.reject(new Error('store unreachable')) : answer();
    const records: RecordStore = {
      read: (key) => reach(() => memory.read(key)),
      swap: (key, expected, value, ttl) => reach(() => memory.swap(key, expected, value, ttl)),
      write: (key, value, ttl) => reach(() => memory.write(key, value, ttl)),
      remove: (key) => reach(() => memory.remove(key)),
    };
    const { asked, authorizeBasket } = refuser();
    const h = makeHandler(sb, {
      authorizeBasket,
      store: { claims: memory, watch: memory, counters: memory, records },
    });
    const first = await failed(h);
    away = true;
    assert.equal((await retry(h, first.id)).status, 403);
    assert.deepEqual(asked, [first.checkout_reference]);
  });
});
