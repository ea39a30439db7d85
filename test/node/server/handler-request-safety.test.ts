// The companion handler's request safety against a real sandbox: the body size cap (also while
// streaming), JSON only, the origin check and CORS, authorizeCustomer on customer routes,
// 404 and 405 for unknown routes and methods; and GET /payment-methods.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Sandbox } from '../../../src/sandbox/index.ts';
import { cardBody, cardBodyWith } from '../support/cards.ts';
import { createCheckout, type Harness, handlerPerTest, makeHandler, request } from './fixtures.ts';

let sb: Sandbox;
let h: Harness;
handlerPerTest((s, harness) => {
  sb = s;
  h = harness;
});

describe('request safety', () => {
  test('a body over 16 KiB is refused with 413 before parsing', async () => {
    const { id } = await createCheckout(h);
    const huge = cardBodyWith('4200000000000091', { name: 'x'.repeat(17 * 1024) });
    const res = await h.handle(request('PUT', `/checkouts/${id}`, { body: huge }));
    assert.equal(res.status, 413);
    assert.equal((await res.json()).error.code, 'PAYLOAD_TOO_LARGE');
    // Streamed without Content-Length: the cap holds while reading.
    const chunk = new TextEncoder().encode('x'.repeat(4096));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        sent += 1;
        if (sent > 100) controller.close();
        else controller.enqueue(chunk);
      },
    });
    const streamed = new Request(`http://127.0.0.1/payments/checkouts/${id}`, {
      method: 'PUT',
      headers: { origin: 'https://shop.example', 'content-type': 'application/json' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    const res2 = await h.handle(streamed);
    assert.equal(res2.status, 413);
    assert.ok(sent <= 6, `read ${sent} chunks of 4 KiB`);
    // The checkout was never processed.
    assert.equal(
      (await (await h.handle(request('GET', `/checkouts/${id}`))).json()).status,
      'PENDING',
    );
  });

  test('a body that is not JSON is refused with 415', async () => {
    const res = await h.handle(
      request('POST', '/checkouts', {
        raw: 'order=tea',
        contentType: 'application/x-www-form-urlencoded',
      }),
    );
    assert.equal(res.status, 415);
    assert.equal((await res.json()).error.field, 'content-type');
  });

  test('a state-changing request from a wrong or missing origin is refused with 403', async () => {
    const { id } = await createCheckout(h);
    for (const origin of ['https://evil.example', 'null', null]) {
      const create = await h.handle(
        request('POST', '/checkouts', { origin, body: { order: { sku: 'tea' } } }),
      );
      assert.equal(create.status, 403, `create from ${origin}`);
      const pay = await h.handle(
        request('PUT', `/checkouts/${id}`, { origin, body: cardBody('4200000000000091') }),
      );
      assert.equal(pay.status, 403, `process from ${origin}`);
      assert.equal((await pay.json()).error.code, 'FORBIDDEN_ORIGIN');
    }
    const webhook = await h.handle(
      request('POST', '/webhook', { origin: 'https://evil.example', body: { id } }),
    );
    assert.equal(webhook.status, 403);
    assert.equal(h.paid.length, 0);
  });

  test('allowed origins get CORS headers and a preflight, cookies included', async () => {
    const preflight = await h.handle(request('OPTIONS', '/checkouts/x'));
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers.get('access-control-allow-origin'), 'https://shop.example');
    assert.match(preflight.headers.get('access-control-allow-methods') ?? '', /PUT/);
    // The widget's calls carry the page's cookies (credentials: 'include'): without this a
    // browser refuses the answer to a page on another origin.
    assert.equal(preflight.headers.get('access-control-allow-credentials'), 'true');
    const created = await h.handle(
      request('POST', '/checkouts', { body: { order: { sku: 'tea' } } }),
    );
    assert.equal(created.status, 201);
    assert.equal(created.headers.get('access-control-allow-origin'), 'https://shop.example');
    assert.equal(created.headers.get('access-control-allow-credentials'), 'true');
    const other = await h.handle(
      request('OPTIONS', '/checkouts/x', { origin: 'https://evil.example' }),
    );
    assert.equal(other.status, 403);
    assert.equal(other.headers.get('access-control-allow-credentials'), null);
    assert.equal(other.headers.get('access-control-allow-origin'), null);
  });

  test('customer routes need authorizeCustomer', async () => {
    const none = await h.handle(request('GET', '/customers/cus_1/payment-instruments'));
    assert.equal(none.status, 403);
    const denied = makeHandler(sb, { authorizeCustomer: () => false });
    const res = await denied.handle(request('GET', '/customers/cus_1/payment-instruments'));
    assert.equal(res.status, 403);
    assert.equal((await res.json()).error.field, 'customerId');
    const { id } = await createCheckout(denied);
    const pay = await denied.handle(
      request('PUT', `/checkouts/${id}`, {
        body: { payment_type: 'card', token: 'tok', customer_id: 'cus_1' },
      }),
    );
    assert.equal(pay.status, 403);
    assert.equal((await pay.json()).error.field, 'customer_id');
  });

  test('unknown routes are 404 and wrong methods 405', async () => {
    assert.equal((await h.handle(request('GET', '/nope'))).status, 404);
    const res = await h.handle(request('DELETE', '/checkouts/abc'));
    assert.equal(res.status, 405);
    assert.equal(res.headers.get('allow'), 'GET, PUT');
    const outside = await h.handle(new Request('http://127.0.0.1/elsewhere/checkouts'));
    assert.equal(outside.status, 404);
  });

  test('GET /payment-methods lists what the merchant offers', async () => {
    const res = await h.handle(request('GET', '/payment-methods?amount=10.00&currency=EUR'));
    assert.equal(res.status, 200);
    const ids = (await res.json()).available_payment_methods.map((m: { id: string }) => m.id);
    assert.ok(ids.includes('card') && ids.includes('ideal'), ids.join());
  });
});
