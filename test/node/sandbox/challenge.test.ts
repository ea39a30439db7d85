import assert from 'node:assert/strict';
import { type AddressInfo, createServer as createNetServer, type Socket } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { CheckoutSchema, ProcessAcceptedSchema } from '../../../src/schemas/index.ts';
import { until } from '../../shared/until.ts';
import { cardBody } from '../support/cards.ts';
import {
  checkoutBody,
  expectValid,
  type Harness,
  postForm,
  startSandbox,
  startWebhookReceiver,
  type WebhookReceiver,
} from './helpers.ts';

let h: Harness;
let hooks: WebhookReceiver;
before(async () => {
  h = await startSandbox();
  hooks = await startWebhookReceiver();
});
after(async () => {
  await h.sandbox.close();
  await hooks.close();
});

async function challenge(extra: Record<string, unknown> = {}, number = '4200000000000042') {
  const created = await h.api('POST', '/v0.1/checkouts', checkoutBody(extra));
  const c = expectValid(CheckoutSchema, created.body);
  const res = await h.api('PUT', `/v0.1/checkouts/${c.id}`, cardBody(number));
  assert.equal(res.status, 202, JSON.stringify(res.body));
  const { next_step } = expectValid(ProcessAcceptedSchema, res.body);
  return { id: c.id!, step: next_step, payload: next_step.payload! };
}

/** The sandbox's deliveries for one checkout, newest first (GET /sandbox/webhook-deliveries). */
async function deliveriesFor(id: string) {
  const all = (await h.api('GET', '/sandbox/webhook-deliveries')).body as {
    payload: { id?: string };
    state: string;
    attempts: { status?: number }[];
  }[];
  return all.filter((d) => d.payload.id === id);
}

async function status(id: string) {
  return expectValid(CheckoutSchema, (await h.api('GET', `/v0.1/checkouts/${id}`)).body).status;
}

describe('3DS challenge', () => {
  test('next_step points at the challenge page with PaReq, MD and TermUrl', async () => {
    const { id, step, payload } = await challenge({ redirect_url: 'https://shop.example/back' });
    assert.equal(step.url, `${h.sandbox.url}/sandbox/3ds/${id}`);
    assert.equal(step.method, 'POST');
    assert.deepEqual(step.mechanism, ['iframe', 'browser']);
    assert.equal(step.redirect_url, 'https://shop.example/back');
    assert.equal(payload.TermUrl, `${h.sandbox.url}/v0.1/checkouts/${id}/complete_payment`);
    assert.ok(payload.PaReq && payload.MD);
    assert.equal(await status(id), 'PENDING');
  });

  test('the challenge page (POST and GET) is accessible, frameable HTML with both buttons', async () => {
    const { step, payload } = await challenge();
    const res = await fetch(step.url, { method: 'POST', body: new URLSearchParams(payload) });
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /text\/html/);
    assert.equal(res.headers.get('x-frame-options'), null);
    assert.doesNotMatch(res.headers.get('content-security-policy') ?? '', /frame-ancestors/);
    const html = await res.text();
    assert.match(html, /<html lang="en">/);
    assert.match(html, /<title>[^<]+<\/title>/);
    assert.match(html, />Complete authentication<\/button>/);
    assert.match(html, />Fail authentication<\/button>/);
    assert.ok(html.includes(`action="${payload.TermUrl}"`));
    assert.doesNotMatch(html, /src="http/); // no external assets
    const get = await fetch(`${step.url}?MD=${payload.MD}`);
    assert.equal(get.status, 200);
    const wrong = await fetch(step.url, { method: 'POST', body: new URLSearchParams({ MD: 'x' }) });
    assert.equal(wrong.status, 400);
    assert.equal(((await wrong.json()) as { param: string }).param, 'MD');
  });

  test("the challenge page writes the amount in its currency's minor unit", async () => {
    // Node's own data gave IDR none: 15000.5 read "IDR 15,001", not the amount charged.
    for (const [amount, currency, written] of [
      [15000.5, 'IDR', 'IDR 15,000.50'],
      [12500, 'HUF', 'HUF 12,500'],
      [5.125, 'KWD', 'KWD 5.125'],
      [10, 'EUR', '€10.00'],
    ] as const) {
      const { step, payload } = await challenge({ amount, currency });
      const res = await fetch(`${step.url}?MD=${payload.MD}`);
      const html = (await res.text()).replaceAll('\u00a0', ' ');
      assert.ok(html.includes(`<dd>${written}</dd>`), `${amount} ${currency}: ${html}`);
    }
  });

  test('the posted challenge answers 303 to its page by GET, which Back after the answer finds closed', async () => {
    const { id, step, payload } = await challenge({ redirect_url: 'https://shop.example/back' });
    const posted = await postForm(step.url, payload);
    assert.equal(posted.status, 303);
    assert.equal(posted.headers.get('cache-control'), 'no-store');
    const page = new URL(posted.headers.get('location')!, step.url).href;
    assert.equal(page, `${step.url}?MD=${payload.MD}`);
    const shown = await fetch(page, { headers: { accept: 'text/html' } });
    assert.equal(shown.status, 200);
    assert.match(await shown.text(), />Complete authentication<\/button>/);
    const done = await postForm(payload.TermUrl!, { MD: payload.MD!, PaRes: 'Y' });
    assert.equal(done.headers.get('location'), `https://shop.example/back?checkout_id=${id}`);
    // Back from the shop's return page: the same GET, now the page that says it is over.
    // A 200: the page as it now is (it was a 400, which Chromium reported in the console).
    const back = await fetch(page, { headers: { accept: 'text/html' } });
    assert.equal(back.status, 200);
    assert.match(await back.text(), /<h1>This authentication is no longer open<\/h1>/);
    // Posted once answered (a page a browser kept): that page at once, no redirect.
    const late = await fetch(step.url, {
      method: 'POST',
      headers: { accept: 'text/html' },
      body: new URLSearchParams(payload),
      redirect: 'manual',
    });
    assert.equal(late.status, 400);
    assert.match(await late.text(), /This authentication is no longer open/);
  });

  test('answered in a frame: the page replaces its URL with the answer, and posts it on as it loads', async () => {
    const { id, step, payload } = await challenge();
    const page = await fetch(`${step.url}?MD=${payload.MD}&PaRes=N`, {
      headers: { accept: 'text/html' },
    });
    assert.equal(page.status, 200);
    const html = await page.text();
    assert.ok(html.includes(`<form method="post" action="${payload.TermUrl}">`));
    // Answered (PaRes in its URL): its form posted with that button as the page loads; else,
    // in a frame, a button's answer replaces the page's URL.
    assert.match(html, /if\(a\)f\.requestSubmit\(f\.querySelector\('\[value='\+a\[1\]\+'\]'\)\)/);
    assert.match(html, /if\(parent!==self\)[^<]*location\.replace\(location\+'&PaRes='/);
    assert.equal(await status(id), 'PENDING');
    // Answered: the same URL again (a reload, Back) is the page that says it is over.
    await postForm(payload.TermUrl!, { MD: payload.MD!, PaRes: 'N' });
    assert.equal(await status(id), 'FAILED');
    const again = await fetch(`${step.url}?MD=${payload.MD}&PaRes=N`, {
      headers: { accept: 'text/html' },
    });
    assert.equal(again.status, 200);
    assert.match(await again.text(), /This authentication is no longer open/);
  });

  test('Complete authentication without redirect_url: PAID and an end page that posts to its parent', async () => {
    const { id, payload } = await challenge();
    const res = await postForm(payload.TermUrl!, { MD: payload.MD!, PaRes: 'Y' });
    assert.equal(res.status, 200);
    const csp = res.headers.get('content-security-policy') ?? '';
    const nonce = /script-src 'nonce-([^']+)'/.exec(csp)?.[1];
    assert.ok(nonce, csp);
    assert.ok(res.text.includes(`<script nonce="${nonce}">`));
    assert.ok(res.text.includes('parent.postMessage'));
    assert.ok(res.text.includes('"type":"payment-widget:challenge-complete"'));
    assert.ok(res.text.includes(`"checkout_id":"${id}"`));
    assert.ok(res.text.includes('"status":"PAID"'));
    const c = expectValid(CheckoutSchema, (await h.api('GET', `/v0.1/checkouts/${id}`)).body);
    assert.equal(c.status, 'PAID');
    assert.equal(c.transactions?.[0]?.status, 'SUCCESSFUL');
    assert.equal(c.transaction_id, c.transactions?.[0]?.id);
  });

  test('Fail authentication: FAILED with a FAILED transaction', async () => {
    const { id, payload } = await challenge();
    const res = await postForm(payload.TermUrl!, { MD: payload.MD!, PaRes: 'N' });
    assert.ok(res.text.includes('"status":"FAILED"'));
    const c = expectValid(CheckoutSchema, (await h.api('GET', `/v0.1/checkouts/${id}`)).body);
    assert.equal(c.status, 'FAILED');
    assert.equal(c.transactions?.[0]?.status, 'FAILED');
  });

  test('with redirect_url TermUrl answers 303 to redirect_url?checkout_id=', async () => {
    const { id, payload } = await challenge({ redirect_url: 'https://shop.example/back?x=1' });
    const res = await postForm(payload.TermUrl!, { MD: payload.MD!, PaRes: 'Y' });
    assert.equal(res.status, 303);
    assert.equal(res.headers.get('location'), `https://shop.example/back?x=1&checkout_id=${id}`);
    // Answered again (a page a browser kept, a double submit): refused, nothing settled twice.
    const again = await postForm(payload.TermUrl!, { MD: payload.MD!, PaRes: 'N' });
    assert.equal(again.status, 400);
    assert.equal(JSON.parse(again.text).param, 'MD');
    const c = expectValid(CheckoutSchema, (await h.api('GET', `/v0.1/checkouts/${id}`)).body);
    assert.equal(c.status, 'PAID');
    assert.equal(c.transactions?.length, 1);
  });

  test('a challenge on a declined amount authenticates, then the issuer declines', async () => {
    const { id, payload } = await challenge({ amount: 42.01 });
    await postForm(payload.TermUrl!, { MD: payload.MD!, PaRes: 'Y' });
    assert.equal(await status(id), 'FAILED');
  });

  test('TermUrl refuses a bad PaRes or an unknown MD with 400 naming the field', async () => {
    const { id, payload } = await challenge();
    const bad = await postForm(payload.TermUrl!, { MD: payload.MD!, PaRes: 'maybe' });
    assert.equal(bad.status, 400);
    assert.equal(JSON.parse(bad.text).param, 'PaRes');
    const unknown = await postForm(payload.TermUrl!, { MD: 'forged', PaRes: 'Y' });
    assert.equal(unknown.status, 400);
    assert.equal(JSON.parse(unknown.text).param, 'MD');
    assert.equal(await status(id), 'PENDING');
  });

  test('a second PUT while a challenge is open replaces it; the old MD can no longer settle', async () => {
    const first = await challenge();
    // The shopper closed the iframe and pays again, this time with a frictionless card.
    const res = await h.api('PUT', `/v0.1/checkouts/${first.id}`, cardBody('4200000000000091'));
    assert.equal(res.status, 200);
    assert.equal(expectValid(CheckoutSchema, res.body).status, 'PAID');
    const stale = await postForm(first.payload.TermUrl!, { MD: first.payload.MD!, PaRes: 'N' });
    assert.equal(stale.status, 400);
    assert.equal(await status(first.id), 'PAID');
  });

  test('a second challenge replaces the first: only the new MD settles', async () => {
    const first = await challenge();
    const res = await h.api('PUT', `/v0.1/checkouts/${first.id}`, cardBody('5200000000000015'));
    const second = expectValid(ProcessAcceptedSchema, res.body).next_step.payload!;
    assert.notEqual(second.MD, first.payload.MD);
    assert.equal(
      (await postForm(first.payload.TermUrl!, { MD: first.payload.MD!, PaRes: 'Y' })).status,
      400,
    );
    await postForm(second.TermUrl!, { MD: second.MD!, PaRes: 'Y' });
    assert.equal(await status(first.id), 'PAID');
  });

  test('deactivating during a challenge expires the checkout and closes the challenge', async () => {
    const { id, payload } = await challenge();
    const res = await h.api('DELETE', `/v0.1/checkouts/${id}`);
    assert.equal(expectValid(CheckoutSchema, res.body).status, 'EXPIRED');
    assert.equal((await postForm(payload.TermUrl!, { MD: payload.MD!, PaRes: 'Y' })).status, 400);
    assert.equal(await status(id), 'EXPIRED');
  });
});

describe('webhooks', () => {
  test('each status change is POSTed to return_url, retried with backoff until a 2xx', async () => {
    hooks.received.length = 0;
    const from = h.logs.length;
    hooks.replies.push(500, 503); // two failures, then 204
    const created = await h.api('POST', '/v0.1/checkouts', checkoutBody({ return_url: hooks.url }));
    const c = expectValid(CheckoutSchema, created.body);
    const started = Date.now();
    const res = await h.api('PUT', `/v0.1/checkouts/${c.id}`, cardBody('4200000000000091'));
    assert.equal(res.status, 200);
    await hooks.waitFor(3);
    for (const r of hooks.received) {
      assert.deepEqual(r.body, { event_type: 'CHECKOUT_STATUS_CHANGED', id: c.id });
    }
    // initialDelayMs 10 then 20: each retry waits longer than the one before.
    const [a, b, d] = hooks.received.map((r) => r.at);
    assert.ok(b! - a! >= 9 && d! - b! >= 19, `${a! - started} ${b! - a!} ${d! - b!}`);
    await until('the sandbox to log the third attempt answered', () =>
      h.logs.slice(from).some((line) => line.endsWith(' attempt 3/4: 204')),
    );
    // The sandbox's own record: delivered after three attempts, with nothing left to retry.
    const [delivery, ...others] = await deliveriesFor(c.id!);
    assert.equal(others.length, 0);
    assert.equal(delivery?.state, 'delivered');
    assert.deepEqual(
      delivery?.attempts.map((a) => a.status),
      [500, 503, 204],
    );
    assert.equal(hooks.received.length, 3, 'no delivery after a 2xx');
  });

  test('retries stop after the configured attempts', async () => {
    hooks.received.length = 0;
    const from = h.logs.length;
    hooks.replies.push(500, 500, 500, 500, 500, 500);
    const created = await h.api('POST', '/v0.1/checkouts', checkoutBody({ return_url: hooks.url }));
    const c = expectValid(CheckoutSchema, created.body);
    await h.api('DELETE', `/v0.1/checkouts/${c.id}`);
    await hooks.waitFor(4);
    await until('the sandbox to log the last attempt answered', () =>
      h.logs.slice(from).some((line) => line.endsWith(' attempt 4/4: 500')),
    );
    // The sandbox's own record: failed after four attempts, with nothing left to retry.
    const [delivery] = await deliveriesFor(c.id!);
    assert.equal(delivery?.state, 'failed');
    assert.equal(delivery?.attempts.length, 4);
    assert.equal(hooks.received.length, 4);
    hooks.replies.length = 0;
  });

  test('a 3DS checkout notifies once when it settles, not when the challenge opens', async () => {
    hooks.received.length = 0;
    const { id, payload } = await challenge({ return_url: hooks.url });
    // A notification is recorded the moment it is queued: none for an open challenge.
    assert.deepEqual(await deliveriesFor(id), []);
    assert.equal(hooks.received.length, 0);
    await postForm(payload.TermUrl!, { MD: payload.MD!, PaRes: 'Y' });
    await hooks.waitFor(1);
    assert.deepEqual(hooks.received[0]?.body, { event_type: 'CHECKOUT_STATUS_CHANGED', id });
  });

  test('a return_url that never answers does not delay the API response', async () => {
    // Accepts connections and never answers: a delivery awaited inline would hang until the
    // sandbox gave the attempt up and closed its connection, before the API answered.
    const sockets: Socket[] = [];
    let givenUp = false;
    let connected = () => {};
    const delivering = new Promise<void>((resolve) => {
      connected = resolve;
    });
    const silent = createNetServer((socket) => {
      sockets.push(socket);
      socket.on('close', () => {
        givenUp = true;
      });
      connected();
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as AddressInfo;
    try {
      const created = await h.api(
        'POST',
        '/v0.1/checkouts',
        checkoutBody({ return_url: `http://127.0.0.1:${port}/hooks` }),
      );
      const c = expectValid(CheckoutSchema, created.body);
      const res = await h.api('PUT', `/v0.1/checkouts/${c.id}`, cardBody('4200000000000091'));
      assert.equal(res.status, 200);
      assert.equal(givenUp, false, 'the API answered only after a delivery attempt ended');
      await delivering;
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});
