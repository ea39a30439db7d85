/**
 * The static site (`npm run build:site`, dist/site/) served by `python3 -m http.server`, in the
 * engine ENGINE names: the first visit installs the worker and shows the shop, and the shop
 * pays through the widget, the handler and the sandbox all running in the browser. Once at the
 * root of an origin and once under a path. One browser, one page: the flows follow each other
 * as a visitor's would (each paid order, then "Buy again").
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { NOT_A_TEST_CARD } from '../../site/test-cards.ts';
import { type Driver, EXISTS, nameArg, TEXT, waitFor } from '../engines/driver.ts';
import { launch } from '../engines/launch.ts';
import { CARDS, fillCard, fillPerson, PAY, seeText } from '../engines/shopper.ts';
import { scaled } from '../shared/until.ts';
import { type StaticServer, serveStatic } from './static-server.ts';

const SITE = fileURLToPath(new URL('../../dist/site/', import.meta.url));
const FLOW = { timeout: scaled(60_000) };

/** Page script: every URL the page loaded (itself included) that is not of its own origin. */
const FOREIGN = `
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
async function checkoutOn(driver: Driver): Promise<string | null> {
  const named = await driver.run<string | null>(CHECKOUT_ID);
  if (named) return named;
  return (await provider<{ id: string }[]>(driver, '/v0.1/checkouts')).at(-1)?.id ?? null;
}

/** Opens `path` of the site and waits for the widget's Pay button; returns the checkout id. */
async function openShop(driver: Driver, site: StaticServer, path: string): Promise<string> {
  await driver.goto(new URL(path, site.url).href);
  await waitFor('the Pay button', () => driver.run<boolean>(EXISTS, 'control', nameArg(PAY)));
  const id = await checkoutOn(driver);
  assert.ok(id, 'the shop page has its checkout');
  assert.deepEqual(await driver.run<string[]>(FOREIGN), []);
  return id;
}

/**
 * A call to the sandbox running in the page's worker, from the page (it has the site's root in
 * the banner's stylesheet link), with the sandbox's test key: what the dashboard does.
 */
function provider<T>(driver: Driver, path: string, method = 'GET', body?: unknown): Promise<T> {
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

async function statusOf(driver: Driver, id: string): Promise<string> {
  return (await provider<{ status: string }>(driver, `/v0.1/checkouts/${id}`)).status;
}

/** "Buy again" on a paid order: a new basket, and its checkout's id. */
async function buyAgain(driver: Driver): Promise<string> {
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
type Seen = [id: string, status: 'PAID' | 'FAILED'];

/**
 * The first visit (the worker installed, the shop shown without a reload of the visitor's),
 * then a test card pays. With `refuse`, first a card that is not a test card: refused in the
 * banner's words, and the checkout stays open.
 */
async function firstCard(driver: Driver, site: StaticServer, seen: Seen[], refuse: boolean) {
  const id = await openShop(driver, site, './?redirect=0');
  await seeText(driver, 'A simulation.');
  if (refuse) {
    await fillCard(driver, '4111111111111111');
    await driver.click(PAY);
    await seeText(driver, NOT_A_TEST_CARD);
    assert.equal(await statusOf(driver, id), 'PENDING');
    await driver.goto(await driver.url());
    await waitFor('the Pay button', () => driver.run<boolean>(EXISTS, 'control', nameArg(PAY)));
    assert.equal(await checkoutOn(driver), id, 'the same basket');
  }
  await fillCard(driver, CARDS.paid);
  await driver.click(PAY);
  await seeText(driver, 'Payment successful');
  assert.equal(await statusOf(driver, id), 'PAID');
  seen.push([id, 'PAID']);
  // The world outlives the page: a reload shows the paid order.
  await driver.goto(await driver.url());
  await seeText(driver, 'Buy again');
}

/** 3DS in the iframe, then a decline (the outcome control) and another card. */
async function cardFlows(driver: Driver, seen: Seen[]): Promise<void> {
  const challenged = await buyAgain(driver);
  await fillCard(driver, CARDS.challenge);
  await driver.click(PAY);
  await driver.inFrame(() => driver.click('Complete authentication'));
  await seeText(driver, 'Payment successful');
  assert.equal(await statusOf(driver, challenged), 'PAID');
  seen.push([challenged, 'PAID']);

  const declined = await buyAgain(driver);
  // The card's bank declines the next payment (the sandbox's outcome control).
  await provider(driver, '/sandbox/outcomes', 'POST', { outcome: 'declined' });
  await fillCard(driver, CARDS.paid);
  await driver.click(PAY);
  await seeText(driver, 'Your card was declined');
  await driver.click('Try another card');
  await waitFor('the form again', () => driver.run<boolean>(EXISTS, 'control', nameArg(PAY)));
  await fillCard(driver, CARDS.paid);
  await driver.click(PAY);
  await seeText(driver, 'Payment successful');
  const second = await driver.run<string>(
    "return document.querySelector('payment-widget').checkoutId;",
  );
  assert.notEqual(second, declined);
  assert.equal(await statusOf(driver, declined), 'FAILED');
  assert.equal(await statusOf(driver, second), 'PAID');
  seen.push([declined, 'FAILED'], [second, 'PAID']);
}

/** 3DS as a full page at the provider's challenge page, back on the result page. */
async function fullPage3ds(driver: Driver, site: StaticServer, seen: Seen[]): Promise<void> {
  await driver.goto(new URL('./', site.url).href);
  const id = await buyAgain(driver);
  await fillCard(driver, CARDS.challenge);
  await driver.click(PAY);
  await driver.click('Complete authentication');
  await onResultPage(driver, site, id);
  seen.push([id, 'PAID']);
}

/**
 * iDEAL approved at the simulated bank, back on the result page; at 11.00, an amount that
 * declines every card and no bank method.
 */
async function ideal(driver: Driver, site: StaticServer, seen: Seen[]): Promise<void> {
  await driver.goto(new URL('./?amount=11.00', site.url).href);
  const id = await buyAgain(driver);
  const { amount } = await provider<{ amount: number }>(driver, `/v0.1/checkouts/${id}`);
  assert.equal(amount, 11);
  await driver.click('iDEAL');
  await fillPerson(driver);
  await driver.click(PAY);
  await driver.click('Approve payment');
  await onResultPage(driver, site, id);
  seen.push([id, 'PAID']);
}

/** Boleto: the voucher, Payment pending; paid once the bank settles it (the control route). */
async function boleto(driver: Driver, site: StaticServer, seen: Seen[]): Promise<void> {
  await driver.goto(new URL('./?currency=BRL', site.url).href);
  const id = await buyAgain(driver);
  await driver.click('Boleto');
  await fillPerson(driver, 'Ana', 'Silva');
  await driver.fill('CPF or CNPJ', '529.982.247-25');
  await driver.fill('Street and number', 'Avenida Paulista 1000');
  await driver.fill('City', 'São Paulo');
  await driver.fill('State', 'SP');
  await driver.fill('Postal code', '01310100');
  await driver.click(PAY);
  await seeText(driver, 'Pay this boleto at a bank or online');
  await seeText(driver, 'Payment pending');
  assert.equal(await statusOf(driver, id), 'PENDING');
  await provider(driver, `/sandbox/checkouts/${id}/settle`, 'POST', {});
  assert.equal(await statusOf(driver, id), 'PAID');
  seen.push([id, 'PAID']);
}

async function onResultPage(driver: Driver, site: StaticServer, id: string): Promise<void> {
  const page = new URL(`result.html?checkout_id=${id}`, site.url).href;
  await waitFor('the result page', async () => (await driver.url()) === page);
  await seeText(driver, 'Payment successful');
  assert.equal(await statusOf(driver, id), 'PAID');
  assert.deepEqual(await driver.run<string[]>(FOREIGN), []);
}

/** The dashboard lists each checkout with its status, and the webhooks the handler answered. */
async function dashboardShows(driver: Driver, site: StaticServer, seen: Seen[]): Promise<void> {
  assert.ok(seen.length > 0, 'the flows before paid something');
  await driver.goto(new URL('provider/', site.url).href);
  for (const [id, status] of seen) {
    await waitFor(`${id} ${status} on the dashboard`, async () =>
      new RegExp(`${status}.*${id}|${id}.*${status}`).test(await driver.run<string>(TEXT)),
    );
  }
  assert.deepEqual(await driver.run<string[]>(FOREIGN), []);
  await driver.click(/^Webhooks/);
  for (const [id] of seen) await seeText(driver, `Checkout ${id} changed`);
  await seeText(driver, 'delivered');
}

/** Page expression: the dashboard's connection, as its header says it (Live, Reconnecting…). */
const SHOWN =
  "document.querySelector('sandbox-dashboard')?.shadowRoot?.querySelector('header [role=status]')?.textContent.trim() ?? null";

const CONNECTION = `return ${SHOWN};`;

/**
 * Page script: from now on, every connection state the dashboard shows, sampled at each frame
 * (`window.connections`). No `new Function`: the dashboard's policy (Trusted Types) refuses it.
 */
const WATCH_CONNECTION = `
window.connections = [];
const sample = () => {
  const now = ${SHOWN};
  if (window.connections.at(-1) !== now) window.connections.push(now);
  requestAnimationFrame(sample);
};
sample();
`;

/**
 * The dashboard's live feed connects and stays so: a checkout made elsewhere shows without a
 * reload, the header never leaves "Live" (the stream retries after a second: two seconds see a
 * failing one go), and nothing is logged on the console meanwhile (what the engine tells: Driver.said).
 */
async function liveFeedHolds(driver: Driver, site: StaticServer): Promise<void> {
  await driver.goto(new URL('provider/', site.url).href);
  await waitFor('the live feed', async () => (await driver.run<string>(CONNECTION)) === 'Live');
  // From here: what the page before logged as it went (Firefox: its stream cut) is not this.
  await driver.said();
  await driver.run(WATCH_CONNECTION);
  const started = Date.now();
  const made = await provider<{ id: string }>(driver, '/v0.1/checkouts', 'POST', {
    checkout_reference: `live-${started}`,
    amount: 5,
    currency: 'EUR',
    merchant_code: 'MSANDBOX1',
  });
  await seeText(driver, made.id);
  await waitFor('two seconds of the feed', async () => Date.now() - started >= 2_000);
  assert.deepEqual(await driver.run<string[]>('return window.connections;'), ['Live']);
  assert.deepEqual(await driver.said(), []);
}

/**
 * The state is in the browser, not in the worker: the worker unregistered, the next visit
 * installs a new one, which finds the paid order and the dashboard's checkouts as they were.
 */
async function outlivesWorker(driver: Driver, site: StaticServer, seen: Seen[]): Promise<void> {
  await driver.goto(site.url);
  await seeText(driver, 'Buy again');
  const gone = await driver.run<boolean>(
    'return (await navigator.serviceWorker.getRegistration()).unregister();',
  );
  assert.equal(gone, true);
  const installs = () => site.requested().filter((path) => path.endsWith('/sw.js')).length;
  const before = installs();
  await driver.goto(site.url);
  await seeText(driver, 'Buy again');
  assert.ok(installs() > before, 'the visit installed a new worker');
  await dashboardShows(driver, site, seen);
}

/** The dashboard's reset clears it all: no checkout left, and the shop starts a new basket. */
async function resetClears(driver: Driver, site: StaticServer, seen: Seen[]): Promise<void> {
  await driver.goto(new URL('provider/', site.url).href);
  await seeText(driver, seen[0]![0]);
  await driver.click('Reset sandbox…');
  await driver.click('Reset everything');
  await seeText(driver, 'Sandbox reset');
  const left = await provider<unknown[]>(driver, '/v0.1/checkouts');
  assert.deepEqual(left, []);
  const id = await openShop(driver, site, './');
  assert.ok(!seen.some(([old]) => old === id), 'a new basket, a new checkout');
}

/** Every link of the shop page leads to a page of the site (the worker's, or a file). */
async function linksHold(driver: Driver, site: StaticServer): Promise<void> {
  await driver.goto(site.url);
  const broken = await driver.run<string[]>(`
    const links = [...document.querySelectorAll('a[href]')].map((a) => a.href);
    // As a navigation asks (the dashboard is a page for browsers; API clients get the provider's 404).
    const page = { headers: { accept: 'text/html' } };
    const answers = await Promise.all(links.map((href) => fetch(href, page).then((r) => r.ok ? '' : r.status + ' ' + href)));
    return links.length < 8 ? ['only ' + links.length + ' links'] : answers.filter(Boolean);
  `);
  assert.deepEqual(broken, []);
}

let driver: Driver;

before(async () => {
  assert.ok(existsSync(SITE), 'dist/site/ is built (npm run build:site)');
  driver = await launch();
});

after(() => driver?.close());

/**
 * Served under a path, where every relative URL and every URL the worker gives out must hold:
 * every flow. At the root of an origin (a worker of its own), the first visit, a card and the
 * full-page 3DS, where the result page's address is built.
 */
for (const [path, all] of [
  ['/try/payment-widget/', true],
  ['/', false],
] as const) {
  describe(`the static site at ${path}`, () => {
    let site: StaticServer;
    const seen: Seen[] = [];

    before(async () => {
      site = await serveStatic(SITE, path);
    });

    after(() => site?.close());

    it(
      all
        ? 'the first visit shows the shop; a card that is not a test card is refused, a test card pays'
        : 'the first visit shows the shop; a test card pays',
      FLOW,
      () => firstCard(driver, site, seen, all),
    );
    if (all) {
      it('3DS in the iframe pays; declined, then another card pays once', FLOW, () =>
        cardFlows(driver, seen),
      );
    }
    it('3DS as a full page comes back paid on the result page', FLOW, () =>
      fullPage3ds(driver, site, seen),
    );
    if (!all) {
      it('boleto: the voucher, then paid once the bank settles it', FLOW, () =>
        boleto(driver, site, seen),
      );
    }
    if (all) {
      it('iDEAL approved at the bank comes back paid on the result page, at 11.00 too', FLOW, () =>
        ideal(driver, site, seen),
      );
    }
    it('the dashboard shows those checkouts and their webhooks', FLOW, () =>
      dashboardShows(driver, site, seen),
    );
    if (all) {
      it('the state outlives the worker: a new one finds the same orders and checkouts', FLOW, () =>
        outlivesWorker(driver, site, seen),
      );
    }
    if (!all) {
      it('the dashboard’s live feed stays connected, with nothing on the console', FLOW, () =>
        liveFeedHolds(driver, site),
      );
      it('every link of the shop page leads to a page of the site', FLOW, () =>
        linksHold(driver, site),
      );
      it('the dashboard’s reset clears the checkouts, and the shop starts a new basket', FLOW, () =>
        resetClears(driver, site, seen),
      );
    }
  });
}
