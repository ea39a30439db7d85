// The challenge and bank pages opened or posted for a step that is no longer open: a browser
// reads a short page that says so (and links back to the shop when the checkout has a
// redirect_url), an API client asking for JSON keeps the provider's error.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { CHALLENGE_COMPLETE } from '../../../src/domain/checkout.ts';
import { CheckoutSchema, ProcessAcceptedSchema } from '../../../src/schemas/index.ts';
import { cardBody } from '../support/cards.ts';
import { checkoutBody, expectValid, type Harness, postForm, startSandbox } from './helpers.ts';

let h: Harness;
before(async () => {
  h = await startSandbox();
});
after(() => h.sandbox.close());

/** What a browser sends with a navigation or a form post, frames included. */
const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

async function asBrowser(url: string, form?: Record<string, string>) {
  const res = await fetch(url, {
    method: form === undefined ? 'GET' : 'POST',
    headers: { accept: BROWSER },
    redirect: 'manual',
    ...(form !== undefined && { body: new URLSearchParams(form) }),
  });
  return {
    status: res.status,
    type: res.headers.get('content-type') ?? '',
    html: await res.text(),
  };
}

async function asJsonClient(url: string, form: Record<string, string>) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { accept: 'application/json' },
    body: new URLSearchParams(form),
    redirect: 'manual',
  });
  return { status: res.status, body: (await res.json()) as { error_code: string; param: string } };
}

async function challenge(extra: Record<string, unknown> = {}) {
  const c = expectValid(
    CheckoutSchema,
    (await h.api('POST', '/v0.1/checkouts', checkoutBody(extra))).body,
  );
  const res = await h.api('PUT', `/v0.1/checkouts/${c.id}`, cardBody('4200000000000042'));
  assert.equal(res.status, 202, JSON.stringify(res.body));
  const step = expectValid(ProcessAcceptedSchema, res.body).next_step;
  return { id: c.id!, url: step.url, payload: step.payload! };
}

async function bankStep() {
  const body = checkoutBody({ redirect_url: 'https://shop.example/back' });
  const c = expectValid(CheckoutSchema, (await h.api('POST', '/v0.1/checkouts', body)).body);
  const res = await h.api('PUT', `/v0.1/checkouts/${c.id}`, { payment_type: 'ideal' });
  assert.equal(res.status, 202, JSON.stringify(res.body));
  const step = expectValid(ProcessAcceptedSchema, res.body).next_step;
  return { id: c.id!, url: step.url, full: step.full!, tx: step.payload!.tx! };
}

/** The page's visible words, tags dropped. */
const words = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');

describe('a challenge that is no longer open', () => {
  test('approved late after another card paid: a page that says so, with a link back to the shop', async () => {
    const first = await challenge({ redirect_url: 'https://shop.example/back?x=1' });
    // The shopper left the challenge and paid with a frictionless card meanwhile.
    const paid = await h.api('PUT', `/v0.1/checkouts/${first.id}`, cardBody('4200000000000091'));
    assert.equal(expectValid(CheckoutSchema, paid.body).status, 'PAID');

    const late = await asBrowser(first.payload.TermUrl!, { MD: first.payload.MD!, PaRes: 'Y' });
    assert.equal(late.status, 400);
    assert.match(late.type, /^text\/html/);
    assert.match(late.html, /<h1>This authentication is no longer open<\/h1>/);
    assert.match(words(late.html), /This payment has already been completed\. Nothing is charged/);
    assert.ok(
      late.html.includes(
        `<a href="https://shop.example/back?x=1&amp;checkout_id=${first.id}">Back to the shop</a>`,
      ),
      late.html,
    );
    assert.doesNotMatch(late.html, /error_code|MD does not match/);

    const api = await asJsonClient(first.payload.TermUrl!, { MD: first.payload.MD!, PaRes: 'Y' });
    assert.equal(api.status, 400);
    assert.deepEqual([api.body.error_code, api.body.param], ['INVALID', 'MD']);
    const after = await h.api('GET', `/v0.1/checkouts/${first.id}`);
    assert.equal(expectValid(CheckoutSchema, after.body).transactions?.length, 1);
  });

  test('in the widget frame (no redirect_url): no link, and the widget is told to read its checkout', async () => {
    const first = await challenge();
    const second = await h.api('PUT', `/v0.1/checkouts/${first.id}`, cardBody('5200000000000015'));
    assert.equal(second.status, 202, 'a newer challenge replaced the first');

    const late = await asBrowser(first.payload.TermUrl!, { MD: first.payload.MD!, PaRes: 'Y' });
    assert.equal(late.status, 400);
    assert.match(words(late.html), /A newer attempt to pay replaced this one\./);
    assert.match(words(late.html), /You can close this page/);
    assert.doesNotMatch(late.html, /<a /);
    assert.ok(late.html.includes(`"type":"${CHALLENGE_COMPLETE}"`));
    assert.ok(late.html.includes('"status":"PENDING"'));
  });

  test('the challenge page opened again after it was answered says it is over (JSON clients: 400 MD)', async () => {
    const { id, url, payload } = await challenge({ redirect_url: 'https://shop.example/back' });
    const done = await postForm(payload.TermUrl!, { MD: payload.MD!, PaRes: 'Y' });
    assert.equal(done.status, 303);

    const again = await asBrowser(url, {
      PaReq: payload.PaReq!,
      MD: payload.MD!,
      TermUrl: payload.TermUrl!,
    });
    assert.equal(again.status, 400);
    assert.doesNotMatch(again.html, /Complete authentication/);
    assert.match(words(again.html), /This payment has already been completed/);
    assert.ok(again.html.includes(`href="https://shop.example/back?checkout_id=${id}"`));
    const api = await asJsonClient(url, { MD: payload.MD! });
    assert.deepEqual([api.status, api.body.param], [400, 'MD']);
    // Its buttons pressed on the page a browser kept (Back from the shop): refused, said so.
    for (const PaRes of ['Y', 'N']) {
      const late = await asBrowser(payload.TermUrl!, { MD: payload.MD!, PaRes });
      assert.equal(late.status, 400);
      assert.match(words(late.html), /This payment has already been completed/);
    }
    const c = expectValid(CheckoutSchema, (await h.api('GET', `/v0.1/checkouts/${id}`)).body);
    assert.deepEqual([c.status, c.transactions?.length], ['PAID', 1]);
  });

  test('a deactivated checkout, and one the sandbox does not know', async () => {
    const { id, url, payload } = await challenge({ redirect_url: 'https://shop.example/back' });
    assert.equal((await h.api('DELETE', `/v0.1/checkouts/${id}`)).status, 200);
    // Opened again (Back to it, a reload): the page as it now is, a 200 (it was a 400).
    const expired = await asBrowser(`${url}?MD=${payload.MD}`);
    assert.equal(expired.status, 200);
    assert.match(words(expired.html), /This payment is no longer valid\./);

    const unknown = await asBrowser(`${h.sandbox.url}/sandbox/3ds/nosuchcheckout?MD=x`);
    assert.equal(unknown.status, 404);
    assert.match(unknown.type, /^text\/html/);
    assert.match(words(unknown.html), /The sandbox does not know this payment/);
    const api = await fetch(`${h.sandbox.url}/sandbox/3ds/nosuchcheckout?MD=x`);
    assert.equal(((await api.json()) as { error_code: string }).error_code, 'NOT_FOUND');
  });

  test('a bad PaRes is still the provider error: it is no closed step', async () => {
    const { payload } = await challenge();
    const bad = await asBrowser(payload.TermUrl!, { MD: payload.MD!, PaRes: 'maybe' });
    assert.equal(bad.status, 400);
    assert.equal((JSON.parse(bad.html) as { param: string }).param, 'PaRes');
  });
});

describe('a bank page that is no longer open', () => {
  test('reopened after the payment was approved: a page that says so, with a link back', async () => {
    const { id, url, full, tx } = await bankStep();
    assert.equal((await postForm(url, { tx, result: 'approve' })).status, 303);
    // Back to it from the shop: the page as it now is, a 200 (it was a 400).
    const reopened = await asBrowser(full);
    assert.equal(reopened.status, 200);
    assert.match(reopened.html, /<h1>This bank payment is no longer open<\/h1>/);
    assert.doesNotMatch(reopened.html, /Approve payment/);
    assert.ok(reopened.html.includes(`href="https://shop.example/back?checkout_id=${id}"`));
    assert.doesNotMatch(reopened.html, /<script/);
    // Its buttons pressed on the page a browser kept (Back from the shop's result page, which
    // WebKit does whatever the page's no-store): refused with that page, never the shop again.
    for (const result of ['approve', 'decline']) {
      const late = await asBrowser(url, { tx, result });
      assert.equal(late.status, 400);
      assert.match(late.html, /<h1>This bank payment is no longer open<\/h1>/);
      assert.match(
        words(late.html),
        /This payment has already been completed\. Nothing is charged/,
      );
    }
    const api = await asJsonClient(url, { tx, result: 'approve' });
    assert.deepEqual([api.status, api.body.param], [400, 'tx']);
    const c = expectValid(CheckoutSchema, (await h.api('GET', `/v0.1/checkouts/${id}`)).body);
    assert.deepEqual([c.status, c.transactions?.length], ['PAID', 1]);
  });

  test('the bank and issuer pages are never stored: no-store, no referrer', async () => {
    const bank = await bankStep();
    const { url, payload } = await challenge();
    for (const res of [
      await fetch(bank.full),
      await fetch(url, { method: 'POST', body: new URLSearchParams(payload) }),
    ]) {
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('cache-control'), 'no-store');
      assert.equal(res.headers.get('referrer-policy'), 'no-referrer');
    }
  });

  test('replaced by a newer attempt: HTML to a browser, JSON to an API client', async () => {
    const first = await bankStep();
    await h.api('PUT', `/v0.1/checkouts/${first.id}`, { payment_type: 'bancontact' });
    const late = await asBrowser(first.url, { tx: first.tx, result: 'approve' });
    assert.equal(late.status, 400);
    assert.match(words(late.html), /A newer attempt to pay replaced this one/);
    const api = await asJsonClient(first.url, { tx: first.tx, result: 'approve' });
    assert.deepEqual([api.status, api.body.error_code, api.body.param], [400, 'INVALID', 'tx']);
    const c = expectValid(CheckoutSchema, (await h.api('GET', `/v0.1/checkouts/${first.id}`)).body);
    assert.equal(c.status, 'PENDING');
  });
});
