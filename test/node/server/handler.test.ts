import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import type { Sandbox } from '../../../src/sandbox/index.ts';
import { createProviderClient } from '../../../src/server/index.ts';
import { cardBody, cardBodyWith } from '../support/cards.ts';
import {
  createCheckout,
  type Harness,
  makeHandler,
  PUBLIC_URL,
  request,
  startSandbox,
} from './fixtures.ts';

let sb: Sandbox;
let h: Harness;

before(async () => {
  sb = await startSandbox();
});
after(async () => {
  await sb.close();
});
beforeEach(() => {
  h = makeHandler(sb);
});

describe('POST /checkouts', () => {
  test('the amount comes from resolveCheckout; a tampered amount in the body is ignored', async () => {
    const res = await h.handle(
      request('POST', '/checkouts', {
        body: { order: { sku: 'tea' }, amount: 0.01, currency: 'USD', merchant_code: 'MEVIL' },
      }),
    );
    assert.equal(res.status, 201);
    const checkout = await res.json();
    assert.equal(checkout.amount, 10);
    assert.equal(checkout.currency, 'EUR');
    assert.equal(checkout.merchant_code, sb.merchantCode);
    assert.equal(checkout.status, 'PENDING');
    assert.equal(checkout.redirect_url, `${PUBLIC_URL}/return`);
    // The public view hides the merchant's login and the webhook address...
    assert.equal('pay_to_email' in checkout, false);
    assert.equal('return_url' in checkout, false);
    // ...which the provider does have.
    const provider = createProviderClient({ baseUrl: sb.url, apiKey: sb.apiKey });
    const stored = await provider.checkouts.get(checkout.id);
    assert.equal(stored.return_url, `${PUBLIC_URL}/webhook`);
    assert.equal(stored.amount, 10);
  });

  test('redirect: false creates a checkout without redirect_url', async () => {
    const checkout = await createCheckout(h, { sku: 'tea', redirect: false });
    assert.equal(checkout.redirect_url ?? undefined, undefined);
  });

  test('an order the merchant refuses is a 400 naming the field', async () => {
    const res = await h.handle(
      request('POST', '/checkouts', { body: { order: { sku: 'caviar' } } }),
    );
    assert.equal(res.status, 400);
    assert.deepEqual((await res.json()).error, {
      code: 'UNKNOWN_PRODUCT',
      message: 'No such product',
      field: 'order',
    });
  });
});

describe('PUT /checkouts/:id', () => {
  test('card 4200000000000091 is paid at once (200 PAID) and onPaid runs', async () => {
    const { id } = await createCheckout(h);
    const res = await h.handle(
      request('PUT', `/checkouts/${id}`, { body: cardBody('4200000000000091') }),
    );
    assert.equal(res.status, 200);
    const checkout = await res.json();
    assert.equal(checkout.status, 'PAID');
    assert.equal(checkout.id, id);
    assert.equal('return_url' in checkout, false);
    assert.equal(h.paid.length, 1);
    assert.equal(h.paid[0]?.id, id);
  });

  test('a declined amount is 200 FAILED and onFailed runs', async () => {
    const { id } = await createCheckout(h, { sku: 'declined' });
    const res = await h.handle(
      request('PUT', `/checkouts/${id}`, { body: cardBody('4200000000000091') }),
    );
    assert.equal(res.status, 200);
    assert.equal((await res.json()).status, 'FAILED');
    assert.equal(h.failed.length, 1);
    assert.equal(h.paid.length, 0);
  });

  test('challenge card 4200000000000042 answers 202 with a checked next_step only', async () => {
    const { id } = await createCheckout(h);
    const res = await h.handle(
      request('PUT', `/checkouts/${id}`, { body: cardBody('4200000000000042') }),
    );
    assert.equal(res.status, 202);
    const body = await res.json();
    assert.deepEqual(Object.keys(body), ['next_step']);
    const step = body.next_step;
    assert.equal(step.method, 'POST');
    assert.ok(step.url.startsWith(`${sb.url}/`), step.url);
    assert.ok(step.payload.PaReq && step.payload.MD);
    assert.ok(step.payload.TermUrl.startsWith(`${sb.url}/`), step.payload.TermUrl);
    assert.equal(h.paid.length, 0);
  });

  test('ideal answers 202 with next_step.full, the bank page', async () => {
    const { id } = await createCheckout(h);
    const res = await h.handle(
      request('PUT', `/checkouts/${id}`, { body: { payment_type: 'ideal' } }),
    );
    assert.equal(res.status, 202);
    const { next_step } = await res.json();
    assert.ok(next_step.full.startsWith(`${sb.url}/`), next_step.full);
    assert.equal(next_step.redirect_url, `${PUBLIC_URL}/return`);
  });

  test('boleto answers 200 with a voucher and a PENDING boleto transaction; no hook runs', async () => {
    const { id } = await createCheckout(h, { sku: 'boleto' });
    const res = await h.handle(
      request('PUT', `/checkouts/${id}`, {
        body: {
          payment_type: 'boleto',
          personal_details: {
            first_name: 'Ana',
            last_name: 'Silva',
            email: 'ana@example.com',
            tax_id: '12345678909',
          },
        },
      }),
    );
    assert.equal(res.status, 200);
    const checkout = await res.json();
    assert.equal(checkout.status, 'PENDING');
    assert.match(checkout.boleto.barcode, /^\d{20,}$/);
    assert.ok(checkout.boleto.url.startsWith('http'));
    assert.equal(checkout.transactions[0].payment_type, 'BOLETO');
    assert.equal(checkout.transactions[0].status, 'PENDING');
    assert.equal(h.paid.length + h.failed.length, 0);
  });

  test('a provider error keeps its status and code (409 CHECKOUT_PROCESSED)', async () => {
    const { id } = await createCheckout(h);
    await h.handle(request('PUT', `/checkouts/${id}`, { body: cardBody('4200000000000091') }));
    const again = await h.handle(
      request('PUT', `/checkouts/${id}`, { body: cardBody('4200000000000091') }),
    );
    assert.equal(again.status, 409);
    assert.equal((await again.json()).error.code, 'CHECKOUT_PROCESSED');
  });

  test('an unsafe next_step URL from the provider is stopped with a 502', async () => {
    const evil: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      if (init?.method !== 'PUT' || response.status !== 202) return response;
      const body = await response.json();
      body.next_step.payload.TermUrl = 'http://attacker.example/collect';
      return new Response(JSON.stringify(body), { status: 202, headers: response.headers });
    };
    const bad = makeHandler(sb, { fetch: evil });
    const { id } = await createCheckout(bad);
    const res = await bad.handle(
      request('PUT', `/checkouts/${id}`, { body: cardBody('4200000000000042') }),
    );
    assert.equal(res.status, 502);
    const body = await res.json();
    assert.equal(body.error.code, 'UNSAFE_NEXT_STEP');
    assert.equal(body.error.field, 'next_step.payload.TermUrl');
    assert.ok(!JSON.stringify(body).includes('attacker.example'));
  });
});

describe('confirmation', () => {
  /** Pays behind the handler's back, as a completed 3DS challenge or bank page would. */
  async function paidElsewhere(order: unknown = { sku: 'tea' }) {
    const { id } = await createCheckout(h, order);
    const provider = createProviderClient({ baseUrl: sb.url, apiKey: sb.apiKey });
    const result = await provider.checkouts.process(id, cardBody('4200000000000091'));
    assert.equal(result.kind, 'checkout');
    assert.equal(h.paid.length, 0);
    return id;
  }

  test('concurrent return, webhook and polls run onPaid exactly once', async () => {
    const id = await paidElsewhere();
    const responses = await Promise.all([
      h.handle(request('GET', `/return?checkout_id=${id}`, { origin: null })),
      h.handle(
        request('POST', '/webhook', {
          origin: null,
          body: { event_type: 'CHECKOUT_STATUS_CHANGED', id },
        }),
      ),
      h.handle(request('GET', `/checkouts/${id}`)),
      h.handle(request('GET', `/checkouts/${id}`)),
      h.handle(request('GET', `/return?checkout_id=${id}`, { origin: null })),
    ]);
    assert.deepEqual(
      responses.map((r) => r.status),
      [303, 204, 200, 200, 303],
    );
    assert.equal(
      responses[0]?.headers.get('location'),
      `/result?outcome=success&checkout_id=${id}`,
    );
    const poll = responses[2];
    assert.ok(poll);
    assert.equal((await poll.json()).status, 'PAID');
    assert.equal(h.paid.length, 1);
    assert.equal(h.paid[0]?.status, 'PAID');
    // Later reports do not run it again either.
    await h.handle(request('GET', `/checkouts/${id}`));
    assert.equal(h.paid.length, 1);
  });

  test('the webhook re-reads the checkout and never trusts the body', async () => {
    const { id } = await createCheckout(h);
    const res = await h.handle(
      request('POST', '/webhook', {
        origin: null,
        body: { event_type: 'CHECKOUT_STATUS_CHANGED', id, status: 'PAID' },
      }),
    );
    assert.equal(res.status, 204);
    assert.equal(h.paid.length, 0);
  });

  test('/return of a failed checkout runs onFailed and goes to the failure page', async () => {
    const { id } = await createCheckout(h, { sku: 'declined' });
    const provider = createProviderClient({ baseUrl: sb.url, apiKey: sb.apiKey });
    await provider.checkouts.process(id, cardBody('4200000000000091'));
    const res = await h.handle(request('GET', `/return?checkout_id=${id}`, { origin: null }));
    assert.equal(res.status, 303);
    assert.equal(
      res.headers.get('location'),
      `https://shop.example/result?outcome=failure&checkout_id=${id}`,
    );
    assert.equal(h.failed.length, 1);
  });

  test('/return of an unfinished checkout goes to the pending page and runs no hook', async () => {
    const { id } = await createCheckout(h);
    const withPending = makeHandler(sb, { pendingUrl: '/pending' });
    const res = await withPending.handle(
      request('GET', `/return?checkout_id=${id}`, { origin: null }),
    );
    assert.equal(res.headers.get('location'), `/pending?checkout_id=${id}`);
    assert.equal(withPending.paid.length + withPending.failed.length, 0);
  });

  test('a hook that throws is released: the webhook answers 500 and the next delivery runs it again', async () => {
    let calls = 0;
    const flaky = makeHandler(sb, {
      onPaid: () => {
        calls += 1;
        if (calls === 1) throw new Error('database down');
      },
    });
    const { id } = await createCheckout(flaky);
    const provider = createProviderClient({ baseUrl: sb.url, apiKey: sb.apiKey });
    await provider.checkouts.process(id, cardBody('4200000000000091'));
    const webhook = () =>
      flaky.handle(
        request('POST', '/webhook', {
          origin: null,
          body: { event_type: 'CHECKOUT_STATUS_CHANGED', id },
        }),
      );
    const first = await webhook();
    assert.equal(first.status, 500);
    assert.equal((await first.json()).error.code, 'HOOK_FAILED');
    assert.ok(flaky.logs.some((line) => line.includes('database down')));
    assert.equal((await webhook()).status, 204);
    assert.equal((await webhook()).status, 204);
    assert.equal(calls, 2);
  });

  test('a webhook for another event type is acknowledged and ignored', async () => {
    const res = await h.handle(
      request('POST', '/webhook', {
        origin: null,
        body: { event_type: 'SOMETHING_ELSE', id: 'x' },
      }),
    );
    assert.equal(res.status, 204);
  });
});

describe('bad input is a 4xx naming the field', () => {
  const cases: [string, string, string, Record<string, unknown>, number, string, string][] = [
    [
      'process without payment_type',
      'PUT',
      '/checkouts/ID',
      { card: {} },
      400,
      'MISSING',
      'payment_type',
    ],
    [
      'process with an unknown payment_type',
      'PUT',
      '/checkouts/ID',
      { payment_type: 'cash' },
      400,
      'INVALID',
      'payment_type',
    ],
    [
      'card payment without a card',
      'PUT',
      '/checkouts/ID',
      { payment_type: 'card' },
      400,
      'MISSING',
      'card',
    ],
    [
      'card number with spaces',
      'PUT',
      '/checkouts/ID',
      cardBody('4200 0000 0000 0091'),
      400,
      'INVALID',
      'card.number',
    ],
    [
      'month 13',
      'PUT',
      '/checkouts/ID',
      cardBodyWith('4200000000000091', { expiry_month: '13' }),
      400,
      'INVALID',
      'card.expiry_month',
    ],
    [
      'missing cvv',
      'PUT',
      '/checkouts/ID',
      cardBodyWith('4200000000000091', { cvv: undefined }),
      400,
      'MISSING',
      'card.cvv',
    ],
    [
      'token without customer_id',
      'PUT',
      '/checkouts/ID',
      { payment_type: 'card', token: 'tok_1' },
      400,
      'MISSING',
      'customer_id',
    ],
    [
      'bad personal_details email',
      'PUT',
      '/checkouts/ID',
      { payment_type: 'boleto', personal_details: { email: 'nope' } },
      400,
      'INVALID',
      'personal_details.email',
    ],
    ['create without order', 'POST', '/checkouts', { amount: 10 }, 400, 'MISSING', 'order'],
    [
      'webhook without id',
      'POST',
      '/webhook',
      { event_type: 'CHECKOUT_STATUS_CHANGED' },
      400,
      'MISSING',
      'id',
    ],
    ['webhook with a numeric id', 'POST', '/webhook', { id: 42 }, 400, 'INVALID', 'id'],
  ];
  for (const [name, method, path, body, status, code, field] of cases) {
    test(name, async () => {
      const { id } = await createCheckout(h);
      const res = await h.handle(request(method, path.replace('ID', id), { body }));
      assert.equal(res.status, status);
      const { error } = await res.json();
      assert.equal(error.code, code);
      assert.equal(error.field, field);
      assert.ok(error.message.includes(field.split('.').pop() ?? field), error.message);
    });
  }

  test('broken JSON, wrong ids and query values', async () => {
    const checks: [Request, number, string][] = [
      [request('POST', '/checkouts', { raw: '{"order":' }), 400, 'body'],
      [request('POST', '/checkouts', { raw: '' }), 400, 'body'],
      [request('GET', '/return', { origin: null }), 400, 'checkout_id'],
      [request('GET', '/return?checkout_id=%3Cscript%3E', { origin: null }), 400, 'checkout_id'],
      [request('GET', '/checkouts/a%20b'), 400, 'id'],
      [request('GET', '/payment-methods?currency=eur'), 400, 'currency'],
      [request('GET', '/payment-methods?amount=-3&currency=EUR'), 400, 'amount'],
    ];
    for (const [req, status, field] of checks) {
      const res = await h.handle(req);
      assert.equal(res.status, status, `${req.method} ${req.url}`);
      assert.equal((await res.json()).error.field, field, `${req.method} ${req.url}`);
    }
  });

  test('an unknown checkout is the provider 404', async () => {
    const res = await h.handle(request('GET', '/checkouts/does-not-exist'));
    assert.equal(res.status, 404);
    assert.equal((await res.json()).error.code, 'NOT_FOUND');
  });
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

  test('allowed origins get CORS headers and a preflight', async () => {
    const preflight = await h.handle(request('OPTIONS', '/checkouts/x'));
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers.get('access-control-allow-origin'), 'https://shop.example');
    assert.match(preflight.headers.get('access-control-allow-methods') ?? '', /PUT/);
    const other = await h.handle(
      request('OPTIONS', '/checkouts/x', { origin: 'https://evil.example' }),
    );
    assert.equal(other.status, 403);
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
