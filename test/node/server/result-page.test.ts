// A checkout's own result page: resolveCheckout returns `resultPage` (the order's page), and
// that checkout's full-page flows (3DS as a full page here, through the sandbox's challenge
// page) come back there with ?checkout_id=, whatever the outcome, instead of resultPages. A
// page on a foreign origin, or one a browser would read as another host, is refused when the
// checkout is resolved; a result_page slipped into GET /return by hand is never followed.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Sandbox } from '../../../src/sandbox/index.ts';
import { cardBody } from '../support/cards.ts';
import {
  CATALOGUE,
  checkoutsCreated,
  type Harness,
  makeHandler,
  request,
  startSandbox,
} from './fixtures.ts';

let sb: Sandbox;
let h: Harness;
before(async () => {
  sb = await startSandbox();
  h = makeHandler(sb, {
    resolveCheckout(order) {
      const { sku, page } = order as { sku: string; page?: string };
      return { ...(CATALOGUE[sku] as { amount: number; currency: string }), resultPage: page };
    },
  });
});
after(() => sb.close());

interface Step {
  payload: { TermUrl: string; MD: string };
}

/** Creates a checkout for `order`, pays it with a 3DS card, answers the challenge. */
async function throughChallenge(
  order: object,
  answer: 'Y' | 'N',
): Promise<{ id: string; back: string }> {
  const created = await h.handle(request('POST', '/checkouts', { body: { order } }));
  assert.equal(created.status, 201, await created.clone().text());
  const { id } = (await created.json()) as { id: string };
  const paid = await h.handle(
    request('PUT', `/checkouts/${id}`, { body: cardBody('4200000000000042') }),
  );
  assert.equal(paid.status, 202);
  const { next_step } = (await paid.json()) as { next_step: Step };
  const ended = await fetch(next_step.payload.TermUrl, {
    method: 'POST',
    body: new URLSearchParams({ MD: next_step.payload.MD, PaRes: answer }),
    redirect: 'manual',
  });
  // The provider sends the shopper's browser to the checkout's redirect_url.
  assert.equal(ended.status, 303);
  const location = new URL(ended.headers.get('location') ?? '');
  assert.equal(location.searchParams.get('checkout_id'), id);
  return { id, back: `${location.pathname.replace(/^\/payments/, '')}${location.search}` };
}

async function landing(back: string): Promise<string> {
  const res = await h.handle(request('GET', back, { origin: null }));
  assert.equal(res.status, 303);
  return res.headers.get('location') ?? '';
}

describe('resultPage from resolveCheckout', () => {
  test('a full-page 3DS started on /orders/42 comes back to /orders/42, paid or failed', async () => {
    const paid = await throughChallenge({ sku: 'tea', page: '/orders/42' }, 'Y');
    assert.equal(await landing(paid.back), `/orders/42?checkout_id=${paid.id}`);
    const failed = await throughChallenge({ sku: 'tea', page: '/orders/43?tab=pay' }, 'N');
    assert.equal(await landing(failed.back), `/orders/43?tab=pay&checkout_id=${failed.id}`);
    // Without one, resultPages as before.
    const plain = await throughChallenge({ sku: 'tea' }, 'Y');
    assert.equal(await landing(plain.back), `/result?outcome=success&checkout_id=${plain.id}`);
  });

  test('a URL on an allowed origin is followed; the basket’s next checkout keeps the page', async () => {
    const page = 'https://shop.example/orders/44';
    const failed = await throughChallenge({ sku: 'tea', page }, 'N');
    assert.equal(await landing(failed.back), `${page}?checkout_id=${failed.id}`);
    const retried = await h.handle(request('POST', `/checkouts/${failed.id}/retry`));
    assert.equal(retried.status, 201);
    const next = (await retried.json()) as { id: string; redirect_url?: string };
    assert.notEqual(next.id, failed.id);
    assert.equal(new URL(next.redirect_url ?? '').searchParams.get('result_page'), page);
    const checkout = await h.handle.createCheckout({
      amount: 1,
      currency: 'EUR',
      resultPage: page,
    });
    assert.match(
      checkout.redirect_url ?? '',
      /\/return\?result_page=https%3A%2F%2Fshop\.example%2Forders%2F44$/,
    );
  });

  test('a foreign or script page is refused when resolved, and never reaches the provider', async () => {
    const createdBefore = await checkoutsCreated(sb);
    for (const page of [
      'https://evil.example/phish',
      '//evil.example/phish',
      '/\\evil.example',
      'javascript:alert(1)',
      'http://shop.example:8080/orders/1',
    ]) {
      const res = await h.handle(
        request('POST', '/checkouts', { body: { order: { sku: 'tea', page } } }),
      );
      assert.equal(res.status, 500, page);
      const { error } = (await res.json()) as { error: { code: string; field?: string } };
      assert.equal(error.code, 'INVALID_RESOLVED_CHECKOUT', page);
      assert.equal(error.field, 'resultPage', page);
      assert.ok(
        h.logs.some((line) => line.includes('resultPage') && line.includes('allowedOrigins')),
        page,
      );
    }
    await assert.rejects(
      h.handle.createCheckout({ amount: 1, currency: 'EUR', resultPage: 'https://evil.example/' }),
      /result page/,
    );
    assert.equal(await checkoutsCreated(sb), createdBefore);
  });

  test('GET /return follows no result_page it was handed by anyone but the handler’s rule', async () => {
    const { id } = await throughChallenge({ sku: 'tea' }, 'Y');
    const forged = `/return?checkout_id=${id}&result_page=${encodeURIComponent('https://evil.example/x')}`;
    assert.equal(await landing(forged), `/result?outcome=success&checkout_id=${id}`);
    assert.ok(h.logs.some((line) => line.includes('foreign-result-page')));
  });
});
