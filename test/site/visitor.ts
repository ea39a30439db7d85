/**
 * What a visitor of the static site does and sees, over any Driver: the steps the site's
 * flows (site.test.ts, offline.ts) are made of. The site has one visitor, whose flows follow
 * each other.
 */
import assert from 'node:assert/strict';
import { type Driver, EXISTS, type Name, nameArg, TEXT, waitFor } from '../engines/driver.ts';
import { PAY, seeText } from '../engines/shopper.ts';
import type { StaticServer } from './static-server.ts';

/** Page script: every URL the page loaded (itself included) that is not of its own origin. */
export const FOREIGN = `
return performance.getEntries()
  .map((e) => e.name)
  .filter((name) => /^[a-z]+:/.test(name) && !name.startsWith(location.origin + '/'));
`;

/** Page script: the checkout the widget on the page names (by id, or after a retry). */
const CHECKOUT_ID =
  "const widget = document.querySelector('payment-widget'); return widget?.checkoutId ?? widget?.getAttribute('checkout-id') ?? null;";

/**
 * The checkout the widget on the page is for: the one it names, or on a page that names its
 * order (the site's home, as the README's page), the newest the site's sandbox made, which
 * the widget was answered (the site has one visitor, whose flows follow each other).
 */
export async function checkoutOn(driver: Driver): Promise<string | null> {
  const named = await driver.run<string | null>(CHECKOUT_ID);
  if (named) return named;
  return (await provider<{ id: string }[]>(driver, '/v0.1/checkouts')).at(-1)?.id ?? null;
}

/**
 * Opens `path` of the site and waits for the widget's Pay button (`pay` names it in another
 * language); returns the checkout id.
 */
export async function openShop(
  driver: Driver,
  site: StaticServer,
  path: string,
  pay: Name = PAY,
): Promise<string> {
  await driver.goto(new URL(path, site.url).href);
  await waitFor('the Pay button', () => driver.run<boolean>(EXISTS, 'control', nameArg(pay)));
  const id = await checkoutOn(driver);
  assert.ok(id, 'the shop page has its checkout');
  assert.deepEqual(await driver.run<string[]>(FOREIGN), []);
  return id;
}

/**
 * A call to the sandbox running in the page's worker, from the page (it has the site's root in
 * the banner's stylesheet link), with the sandbox's test key: what the dashboard does.
 */
export function provider<T>(
  driver: Driver,
  path: string,
  method = 'GET',
  body?: unknown,
): Promise<T> {
  return driver.run<T>(
    `const [path, method, body] = arguments;
     const root = document.querySelector('link[href$="site.css"]').href.replace(/site[.]css$/, '');
     const res = await fetch(root + 'provider' + path, {
       method,
       headers: { 'content-type': 'application/json', authorization: 'Bearer sk_test_sandbox' },
       body: body == null ? undefined : JSON.stringify(body),
     });
     if (!res.ok) throw new Error(method + ' ' + path + ': ' + res.status + ' ' + (await res.text()));
     return res.json();`,
    path,
    method,
    body,
  );
}

export async function statusOf(driver: Driver, id: string): Promise<string> {
  return (await provider<{ status: string }>(driver, `/v0.1/checkouts/${id}`)).status;
}

/** "Buy again" on a paid order: a new basket, and its checkout's id. */
export async function buyAgain(driver: Driver): Promise<string> {
  const before = await checkoutOn(driver);
  await driver.click('Buy again');
  await waitFor('a new checkout', async () => {
    if (!(await driver.run<boolean>(EXISTS, 'control', nameArg(PAY)))) return false;
    return (await checkoutOn(driver)) !== before;
  });
  const id = await checkoutOn(driver);
  assert.ok(id);
  return id;
}

/** A checkout's id, and the status the sandbox gives it, for the dashboard's check. */
export type Seen = [id: string, status: 'PAID' | 'FAILED'];

/**
 * Waits for the result page of checkout `id`, which says it is paid, and the order's number;
 * with `FAILED`, that the payment failed (and the order is not said to be paid).
 */
export async function onResultPage(
  driver: Driver,
  site: StaticServer,
  id: string,
  status: Seen[1] = 'PAID',
): Promise<void> {
  const page = new URL(`result.html?checkout_id=${id}`, site.url).href;
  await waitFor('the result page', async () => (await driver.url()) === page);
  await seeText(driver, status === 'PAID' ? 'Payment successful' : 'Payment failed');
  assert.equal(await statusOf(driver, id), status);
  // The order's number, as the shop knows it (its basket's reference).
  const { checkout_reference: reference } = await provider<{ checkout_reference: string }>(
    driver,
    `/v0.1/checkouts/${id}`,
  );
  const paid = `Order ${reference} is paid`;
  if (status === 'PAID') await seeText(driver, paid);
  else assert.ok(!(await driver.run<string>(TEXT)).includes(paid), 'a failed order is not paid');
  assert.deepEqual(await driver.run<string[]>(FOREIGN), []);
}

/**
 * Waits until the page's simulation banner has the site's styles (site.css lays it out as a
 * flex row): a page whose policy refused the stylesheet shows it unstyled.
 */
export async function bannerStyled(driver: Driver): Promise<void> {
  await waitFor('the banner styled', () =>
    driver.run<boolean>(
      "const b = document.querySelector('.simulation-banner'); return !!b && getComputedStyle(b).display === 'flex';",
    ),
  );
}
