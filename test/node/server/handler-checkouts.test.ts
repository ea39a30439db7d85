// The companion handler creating and paying checkouts against a real sandbox: the amount
// comes from resolveCheckout, and PUT answers 200 (paid or failed), 202 with a checked
// next_step (3DS challenge, bank page) or a voucher (boleto). Confirmation is in
// handler-confirmation.test.ts, refusals in handler-bad-input.test.ts and
// handler-request-safety.test.ts.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Sandbox } from '../../../src/sandbox/index.ts';
import { createMemoryStore, createProviderClient } from '../../../src/server/index.ts';
import { until } from '../../shared/until.ts';
import { cardBody } from '../support/cards.ts';
import {
  createCheckout,
  type Harness,
  handlerPerTest,
  makeHandler,
  PUBLIC_URL,
  request,
} from './fixtures.ts';

let sb: Sandbox;
let h: Harness;
handlerPerTest((s, harness) => {
  sb = s;
  h = harness;
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
      code: 'INVALID',
      message: 'No such product',
      retryable: false,
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
    // Off the answer's path: onPaid runs right behind it.
    await until('onPaid to run', () => h.paid.length > 0);
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

  test("a boleto voucher URL that fails the next steps' rule never reaches the browser; its barcode does", async () => {
    const hostile = 'javascript:alert(document.cookie)';
    const evil: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      const body = await response
        .clone()
        .json()
        .catch(() => undefined);
      if (body?.boleto === undefined) return response;
      body.boleto.url = hostile;
      return new Response(JSON.stringify(body), response);
    };
    const logged: unknown[] = [];
    const bad = makeHandler(sb, { provider: { fetch: evil }, logger: (e) => logged.push(e) });
    const { id } = await createCheckout(bad, { sku: 'boleto' });
    const paid = await bad.handle(
      request('PUT', `/checkouts/${id}`, {
        body: {
          payment_type: 'boleto',
          personal_details: { first_name: 'Ana', last_name: 'Silva', tax_id: '12345678909' },
        },
      }),
    );
    const read = await bad.handle(request('GET', `/checkouts/${id}`));
    for (const res of [paid, read]) {
      assert.equal(res.status, 200);
      const text = await res.text();
      assert.ok(!text.includes('javascript:'), text);
      assert.match(JSON.parse(text).boleto.barcode, /^\d{20,}$/);
    }
    assert.ok(logged.some((e) => (e as { field?: string }).field === 'boleto.url'));
  });

  test('a provider error keeps its status and code (409 CHECKOUT_PROCESSED), and a second payment of a paid checkout is no warning', async () => {
    const logged: { level: string; message: string }[] = [];
    const tabs = makeHandler(sb, { logger: (e) => logged.push(e) });
    const { id } = await createCheckout(tabs);
    await tabs.handle(request('PUT', `/checkouts/${id}`, { body: cardBody('4200000000000091') }));
    // The shopper's second tab, still showing the form, pays the same checkout.
    const again = await tabs.handle(
      request('PUT', `/checkouts/${id}`, { body: cardBody('4200000000000091') }),
    );
    assert.equal(again.status, 409);
    assert.equal((await again.json()).error.code, 'CHECKOUT_PROCESSED');
    const said = logged.filter((e) => e.message.includes('already processed'));
    assert.deepEqual(
      said.map((e) => e.level),
      ['info'],
      'logged once, as info: the console (no logger) says nothing',
    );
  });

  test('an unsafe next_step URL from the provider is stopped with a 502', async () => {
    const evil: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      if (init?.method !== 'PUT' || response.status !== 202) return response;
      const body = await response.json();
      body.next_step.payload.TermUrl = 'http://attacker.example/collect';
      return new Response(JSON.stringify(body), { status: 202, headers: response.headers });
    };
    const store = createMemoryStore();
    const bad = makeHandler(sb, { provider: { fetch: evil }, store });
    const { id } = await createCheckout(bad);
    const res = await bad.handle(
      request('PUT', `/checkouts/${id}`, { body: cardBody('4200000000000042') }),
    );
    assert.equal(res.status, 502);
    const body = await res.json();
    assert.equal(body.error.code, 'UNSAFE_NEXT_STEP');
    assert.equal(body.error.field, 'next_step.payload.TermUrl');
    assert.ok(!JSON.stringify(body).includes('attacker.example'));
    // Nothing is left on its way: a page loaded next is answered at once, not after a wait.
    assert.equal(await store.read?.(`step:${sb.merchantCode}:${id}`), undefined);
  });
});
