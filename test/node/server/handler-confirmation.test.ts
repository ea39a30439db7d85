// How the companion handler learns a checkout's outcome against a real sandbox: the shopper's
// return, the provider's webhook and the widget's polls; onPaid and onFailed run exactly
// once, and a hook that throws runs again on the next delivery.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, test } from 'node:test';
import { CHALLENGE_FRAME } from '../../../src/domain/checkout.ts';
import type { Sandbox } from '../../../src/sandbox/index.ts';
import {
  createCheckout,
  type Harness,
  handlerPerTest,
  makeHandler,
  paidAtProvider,
  request,
  webhookRequest,
} from './fixtures.ts';

let sb: Sandbox;
let h: Harness;
handlerPerTest((s, harness) => {
  sb = s;
  h = harness;
});

describe('confirmation', () => {
  /** Pays behind the handler's back, as a completed 3DS challenge or bank page would. */
  async function paidElsewhere(order: unknown = { sku: 'tea' }) {
    const { id, result } = await paidAtProvider(sb, h, order);
    assert.equal(result.kind, 'checkout');
    assert.equal(h.paid.length, 0);
    return id;
  }

  test('concurrent return, webhook and polls run onPaid exactly once', async () => {
    const id = await paidElsewhere();
    const responses = await Promise.all([
      h.handle(request('GET', `/return?checkout_id=${id}`, { origin: null })),
      h.handle(webhookRequest(id)),
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
    const { id } = await paidAtProvider(sb, h, { sku: 'declined' });
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
    const withPending = makeHandler(sb, { resultPages: { pending: '/pending' } });
    const res = await withPending.handle(
      request('GET', `/return?checkout_id=${id}`, { origin: null }),
    );
    assert.equal(res.headers.get('location'), `/pending?checkout_id=${id}`);
    assert.equal(withPending.paid.length + withPending.failed.length, 0);
  });

  test('a hook that throws is released: the webhook answers 500 and the next delivery runs it again', async () => {
    let calls = 0;
    const flaky = makeHandler(sb, {
      hooks: {
        onPaid: () => {
          calls += 1;
          if (calls === 1) throw new Error('database down');
        },
      },
    });
    const { id } = await paidAtProvider(sb, flaky);
    const webhook = () => flaky.handle(webhookRequest(id));
    const first = await webhook();
    assert.equal(first.status, 500);
    assert.equal((await first.json()).error.code, 'HOOK_FAILED');
    assert.ok(flaky.logs.some((line) => line.includes('database down')));
    assert.equal((await webhook()).status, 204);
    assert.equal((await webhook()).status, 204);
    assert.equal(calls, 2);
  });

  test('/return inside a frame answers a page that stays in the widget’s 3DS frame and goes on to the result page in any other', async () => {
    const id = await paidElsewhere();
    const framed = request('GET', `/return?checkout_id=${id}`, { origin: null });
    framed.headers.set('sec-fetch-dest', 'iframe');
    const res = await h.handle(framed);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('location'), null, 'no redirect: the widget’s frame stays');
    const csp = res.headers.get('content-security-policy') ?? '';
    // Sandboxed to an opaque origin (no allow-same-origin): in the widget's frame it is no
    // document of the shop's origin that could lift the frame's sandbox. Its one script is
    // the one the policy names by hash, and any page may frame it (a framed shop's framer).
    assert.match(csp, /^sandbox allow-scripts;/);
    assert.doesNotMatch(csp, /allow-same-origin|frame-ancestors/);
    assert.match(csp, /default-src 'none'/);
    const page = await res.text();
    assert.ok(page.includes('Authentication finished.'));
    const scripts = [...page.matchAll(/<script>(.*?)<\/script>/g)].map((m) => m[1] ?? '');
    assert.equal(scripts.length, 1);
    const hash = createHash('sha256')
      .update(scripts[0] ?? '')
      .digest('base64');
    assert.ok(csp.includes(`script-src 'sha256-${hash}'`), csp);
    assert.ok(scripts[0]?.includes(`'${CHALLENGE_FRAME}'`), 'stays in the widget’s frame');
    assert.ok(!page.includes('postMessage'), 'posts nothing');
    // Where it goes from any other frame: the result page a full page is redirected to.
    const top = await h.handle(request('GET', `/return?checkout_id=${id}`, { origin: null }));
    assert.equal(top.status, 303);
    const next = top.headers.get('location') ?? '';
    assert.ok(page.includes(`<a hidden href="${next.replaceAll('&', '&#38;')}">`), page);
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
