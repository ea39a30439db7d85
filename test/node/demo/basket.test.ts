// The demo shop's basket, as a shopper's browser meets it: the first page gives a signed
// basket cookie and the basket's one checkout, the same cookie brings the same checkout back,
// a cookie whose signature does not hold is a new basket, and "Buy again" (POST /basket)
// starts a new basket only from the shop's own pages, never from another site's form. The
// page that names its checkout by id (`?checkout-id=1`) shows it; the home page, as the
// README's page, names it by `order`, and the widget's create finds the same basket's one.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { type ServerExample, startServerExample } from '../../../server-example/index.ts';
import { createSandbox, type Sandbox } from '../../../src/sandbox/index.ts';
import { cardBody } from '../support/cards.ts';

let sandbox: Sandbox | undefined;
let shop: ServerExample | undefined;

before(async () => {
  sandbox = await createSandbox({ port: 0, host: '127.0.0.1' });
  shop = await startServerExample({
    providerBaseUrl: sandbox.url,
    providerApiKey: sandbox.apiKey,
    merchantCode: sandbox.merchantCode,
    port: 0,
  });
});

after(async () => {
  await shop?.close();
  await sandbox?.close();
});

/** The `?checkout-id=1` shop page's checkout id and the cookie it set, if any. */
async function page(cookie?: string): Promise<{ checkoutId: string; setCookie: string | null }> {
  const res = await fetch(new URL('/?checkout-id=1', shop!.url), {
    headers: cookie ? { cookie } : {},
  });
  assert.equal(res.status, 200);
  const checkoutId = /checkout-id="([^"]+)"/.exec(await res.text())?.[1] ?? '';
  return { checkoutId, setCookie: res.headers.get('set-cookie') };
}

const basketCookie = (setCookie: string | null) => /shop_basket=[^;]+/.exec(setCookie ?? '')?.[0];

test('the basket cookie is signed, HttpOnly and Lax, and brings the basket’s checkout back', async () => {
  const first = await page();
  const attributes = (first.setCookie ?? '').split('; ').slice(1).sort();
  assert.deepEqual(
    attributes.filter((a) => !a.startsWith('Max-Age=')),
    ['HttpOnly', 'Path=/', 'SameSite=Lax'],
  );
  const cookie = basketCookie(first.setCookie)!;
  const again = await page(cookie);
  assert.equal(again.checkoutId, first.checkoutId);
  assert.equal(again.setCookie, null, 'a known basket sets no new cookie');

  // Someone else's basket id with a made-up signature: a basket of one's own instead.
  const [name, value] = cookie.split('=');
  const forged = `${name}=${decodeURIComponent(value!).replace(/\..*$/, `.${'A'.repeat(43)}=`)}`;
  const other = await page(forged);
  assert.notEqual(other.checkoutId, first.checkoutId);
  assert.ok(basketCookie(other.setCookie));
});

test('“Buy again” starts a new basket from the shop’s pages only', async () => {
  // The shopper's basket, with its checkout, before they press "Buy again".
  const before = await page();
  const oldCookie = basketCookie(before.setCookie)!;
  const post = (origin: string | undefined) =>
    fetch(new URL('/basket', shop!.url), {
      method: 'POST',
      redirect: 'manual',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        cookie: oldCookie,
        ...(origin === undefined ? {} : { origin }),
      },
      body: 'return=/',
    });
  const foreign = await post('https://evil.example');
  assert.equal(foreign.status, 403);
  assert.equal(foreign.headers.get('set-cookie'), null);
  assert.equal(((await foreign.json()) as { error: { field: string } }).error.field, 'origin');
  assert.equal((await post(undefined)).status, 403);
  // Refused: the shopper's basket is still the one they had.
  assert.equal((await page(oldCookie)).checkoutId, before.checkoutId);

  const own = await post(new URL(shop!.url).origin);
  assert.equal(own.status, 303);
  assert.equal(own.headers.get('location'), '/');
  const newCookie = basketCookie(own.headers.get('set-cookie'));
  assert.ok(newCookie, 'a new basket cookie');
  assert.notEqual(newCookie, oldCookie);
  // The browser now sends the new cookie: a new basket, with a checkout of its own.
  const after = await page(newCookie);
  assert.notEqual(after.checkoutId, '');
  assert.notEqual(after.checkoutId, before.checkoutId);
  assert.equal(after.setCookie, null, 'the new basket is known: no other cookie');
});

test('the home page names its checkout by order: the widget’s create finds the basket’s one, at the page’s price', async () => {
  const home = async (path: string, cookie?: string) => {
    const res = await fetch(new URL(path, shop!.url), { headers: cookie ? { cookie } : {} });
    const html = await res.text();
    assert.doesNotMatch(
      html,
      /<payment-widget[^>]*\scheckout-id=/,
      'the page makes no checkout itself',
    );
    const order = /<payment-widget order="([^"]+)"/.exec(html)?.[1]?.replaceAll('&#34;', '"');
    assert.ok(order, 'the page names its order');
    return { order: JSON.parse(order) as { sku: string; quote?: string }, res };
  };
  const first = await home('/?redirect=0&amount=12.50');
  const cookie = basketCookie(first.res.headers.get('set-cookie'))!;
  // What the widget sends: the page's order, with the shopper's cookie, from the shop's page.
  const create = (order: unknown) =>
    fetch(new URL('/payments/checkouts', shop!.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: new URL(shop!.url).origin, cookie },
      body: JSON.stringify({ order }),
    });
  const made = await create(first.order);
  assert.equal(made.status, 201);
  const checkout = (await made.json()) as { id: string; amount: number };
  assert.equal(checkout.amount, 12.5, 'priced as the page was');
  // A reload: the same basket's checkout, answered again.
  const again = await create((await home('/?redirect=0&amount=12.50', cookie)).order);
  assert.equal(again.status, 200);
  assert.equal(((await again.json()) as { id: string }).id, checkout.id);
  // The basket is the checkout's reference (the cookie's id, before its signature).
  const basket = decodeURIComponent(cookie.split('=')[1]!).split('.')[0];
  const listed = await fetch(
    new URL(`/v0.1/checkouts?checkout_reference=order-${basket}`, sandbox!.url),
    { headers: { authorization: `Bearer ${sandbox!.apiKey}` } },
  );
  assert.deepEqual(
    ((await listed.json()) as { id: string }[]).map((c) => c.id),
    [checkout.id],
  );
  // A quote the shop did not sign (the browser changed it): refused, naming it.
  assert.ok(first.order.quote, 'a page priced off the product’s own price carries its quote');
  const forged = await create({ ...first.order, quote: `${first.order.quote}x` });
  assert.equal(forged.status, 400);
  assert.equal(((await forged.json()) as { error: { field: string } }).error.field, 'order.quote');
});

test("after a failure, only the basket's shopper gets its next checkout: a stranger with the result page's link gets 403 naming id", async () => {
  const owner = await page();
  const ownerCookie = basketCookie(owner.setCookie)!;
  const call = (method: string, path: string, cookie: string, body?: unknown) =>
    fetch(new URL(`/payments/checkouts/${owner.checkoutId}${path}`, shop!.url), {
      method,
      headers: { origin: new URL(shop!.url).origin, 'content-type': 'application/json', cookie },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  await fetch(`${sandbox!.url}/sandbox/outcomes`, {
    method: 'POST',
    headers: { authorization: `Bearer ${sandbox!.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ outcome: 'declined' }),
  });
  const paid = await call('PUT', '', ownerCookie, cardBody('4200000000000091'));
  assert.equal(((await paid.json()) as { status: string }).status, 'FAILED');
  const stranger = basketCookie((await page()).setCookie)!;
  const refused = await call('POST', '/retry', stranger);
  assert.equal(refused.status, 403);
  assert.equal(((await refused.json()) as { error: { field: string } }).error.field, 'id');
  assert.equal((await call('POST', '/retry', ownerCookie)).status, 201);
});
