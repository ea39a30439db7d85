// The product page and the result page of a framework's example app (examples/next,
// examples/sveltekit, examples/nuxt), as a shopper uses them in Chromium: each shopper a
// browser context of their own (a new basket), every console error or warning, uncaught
// error and failed request of their page kept, so that a test can say the console stayed
// quiet. The apps sell one mug for 12.50 EUR, say `Paid: <checkout id>` in a status line
// once paid, and print `paid: <reference> (checkout <id>)` from onPaid.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { Browser, Page, Request as SentRequest } from '@playwright/test';
import type { Sandbox } from '../../src/sandbox/index.ts';
import { EXPIRY } from '../e2e/shop.ts';
import { cardBody } from '../node/support/cards.ts';
import { paidLines, type Running, webhookDelivered } from './support.ts';

/** What an app's onPaid prints: `paid: <reference> (checkout <id>)`. */
const PAID = /^paid: \S+ \(checkout (\S+)\)$/gm;

export const PAY = 'Pay €12.50';

/** An app as the tests started it: where it answers, its process, and its sandbox. */
export interface App {
  origin: string;
  server: Running;
  sandbox: Sandbox;
  /** The sandbox's log, for the messages of failed waits. */
  sandboxLog: string[];
}

export interface Shopper {
  page: Page;
  /** Console errors and warnings, uncaught errors and 4xx/5xx answers, as they came. */
  problems: string[];
}

/** A shopper of their own (a new basket), and what went wrong in their browser. */
export async function shopper(browser: Browser): Promise<Shopper> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') {
      problems.push(`${message.type()}: ${message.text()} (${message.location().url})`);
    }
  });
  page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`${response.status()} ${response.url()}`);
  });
  return { page, problems };
}

/** Types a card into the widget, choosing "Card" first when the page offers other methods. */
export async function typeCard(page: Page, number: string): Promise<void> {
  const card = page.getByRole('radio', { name: 'Card' });
  if ((await card.count()) > 0) await card.check();
  await page.getByLabel('Card number').fill(number);
  await page.getByLabel('Expiry date').fill(EXPIRY);
  await page.getByLabel('Security code').fill('123');
  await page.getByLabel('Name on card').fill('Ada Lovelace');
}

/** Pays by card on the product page; the id of the checkout the page names as paid. */
export async function payOnProductPage(page: Page): Promise<string> {
  await typeCard(page, '4200000000000091');
  await page.getByRole('button', { name: PAY }).click();
  await page.getByText('Payment successful').waitFor();
  const status = page.locator('main > p[role=status]');
  const id = /^Paid: (\S+)$/.exec((await status.textContent({ timeout: 10_000 })) ?? '')?.[1];
  assert.ok(id, 'the page names the paid checkout');
  return id;
}

/** onPaid ran exactly once for checkout `id`, once every report of its payment was handled. */
export async function paidOnce(app: App, id: string): Promise<void> {
  await webhookDelivered(app.sandbox, id, app.sandboxLog);
  assert.deepEqual(
    paidLines(app.server.output(), PAID).filter((paid) => paid === id),
    [id],
  );
}

/** The ids of the checkouts the handler at `endpoint` answered `POST /checkouts` with on `page`. */
export function checkoutsAnswered(page: Page, endpoint: string): string[] {
  const ids: string[] = [];
  page.on('response', async (response) => {
    const { pathname } = new URL(response.url());
    if (response.request().method() !== 'POST' || pathname !== `${endpoint}/checkouts`) return;
    if (!response.ok()) return;
    const body = (await response.json()) as { id?: string };
    if (body.id) ids.push(body.id);
  });
  return ids;
}

/**
 * The product page, loaded and reloaded, shows its basket's one checkout (the basket's cookie
 * came with the page, so both loads name it), pays it by card, runs onPaid once, and after
 * another reload shows it paid, never a second form. Then, if the app `buysAgain`, "Buy
 * again" (offered only once paid) starts a new basket: the page shows a new checkout of the
 * same mug, which pays, onPaid once for it too, and a reload shows that one paid; the request
 * it sent, sent again from another site, is refused. The console quiet throughout.
 */
export async function paysTheBasketsCheckoutAfterAReload(
  browser: Browser,
  app: App,
  endpoint: string,
  buysAgain = true,
): Promise<void> {
  const { page, problems } = await shopper(browser);
  const answered = checkoutsAnswered(page, endpoint);
  const again = page.getByRole('button', { name: 'Buy again' });
  await page.goto(`${app.origin}/`);
  await page.getByRole('button', { name: PAY }).waitFor();
  await page.reload();
  await page.getByRole('button', { name: PAY }).waitFor();
  assert.equal(await again.count(), 0, 'nothing to buy again before paying');
  const id = await payOnProductPage(page);
  assert.deepEqual(answered, [id, id], 'both loads show the basket’s one checkout, the one paid');
  await paidOnce(app, id);
  await page.reload();
  await page.getByText('Payment successful').waitFor();
  assert.equal(await page.getByRole('button', { name: PAY }).count(), 0);
  if (!buysAgain) {
    assert.deepEqual(problems, []);
    await page.context().close();
    return;
  }
  // The shopper's next mug, deliberately: "Buy again" starts a new basket (a new cookie), whose
  // checkout is a new one to pay (before, the page offered none: the paid order until the
  // cookies were cleared).
  const [buyAgain] = await Promise.all([
    page.waitForRequest(
      (request) =>
        request.method() === 'POST' && !request.url().startsWith(`${app.origin}${endpoint}/`),
    ),
    again.click({ timeout: 10_000 }),
  ]);
  await page.getByRole('button', { name: PAY }).waitFor();
  assert.equal(await again.count(), 0, 'a new basket: nothing paid yet');
  const next = await payOnProductPage(page);
  assert.notEqual(next, id, 'a new basket: a new checkout');
  await paidOnce(app, next);
  await page.reload();
  await page.getByText('Payment successful').waitFor();
  assert.equal(await page.getByRole('button', { name: PAY }).count(), 0);
  assert.deepEqual([...new Set(answered)], [id, next], 'each load showed one of the two');
  await anotherSiteCannotBuyAgain(buyAgain);
  assert.deepEqual(problems, []);
  await page.context().close();
}

/**
 * The request "Buy again" sent, sent again as another site's page would send it (its Origin;
 * the basket's SameSite=Lax cookie stays behind): refused, with no basket cookie, so no other
 * site can swap a shopper's basket for one it knows.
 */
async function anotherSiteCannotBuyAgain(request: SentRequest): Promise<void> {
  const headers = new Headers(await request.allHeaders());
  for (const name of ['host', 'content-length', 'cookie', 'origin', 'referer']) {
    headers.delete(name);
  }
  headers.set('origin', 'http://shop.example.net');
  headers.set('sec-fetch-site', 'cross-site');
  const answer = await fetch(request.url(), {
    method: 'POST',
    headers,
    body: request.postData(),
    redirect: 'manual',
  });
  assert.equal(answer.status, 403, `${request.url()}: ${await answer.text()}`);
  assert.deepEqual(answer.headers.getSetCookie(), []);
}

/**
 * 3-D Secure failed on the bank's page (a full-page flow) comes back through the handler's
 * return route to the app's result page: "Payment failed", then "Try another card", a card
 * only (the page named no methods), which pays, and a reload shows it paid; the console quiet
 * throughout.
 */
export async function resultPageAfterAFailedChallenge(browser: Browser, app: App): Promise<void> {
  const { page, problems } = await shopper(browser);
  await page.goto(`${app.origin}/`);
  await page.getByRole('button', { name: PAY }).waitFor();
  await typeCard(page, '4200000000000042');
  await page.getByRole('button', { name: PAY }).click();
  await page.getByRole('button', { name: 'Fail authentication' }).click();
  await page.waitForURL(/\/result\?checkout_id=/);
  await page.getByText('Payment failed').waitFor();
  await page.getByRole('button', { name: 'Try another card' }).click();
  await page.getByRole('button', { name: PAY }).waitFor();
  assert.equal(await page.getByRole('radio').count(), 0);
  await typeCard(page, '4200000000000091');
  await page.getByRole('button', { name: PAY }).click();
  await page.getByText('Payment successful').waitFor();
  // Reloaded, the page shows the basket's checkout that paid, not the failure it came back with.
  await page.reload();
  await page.getByText(/Payment (successful|failed)/).waitFor();
  assert.equal(await page.getByText('Payment failed').count(), 0, 'a reload says it failed');
  assert.deepEqual(problems, []);
  await page.context().close();
}

/**
 * A 3-D Secure shown in the widget's iframe (`challenge="iframe"`, or a checkout without a
 * `redirect_url`) ends with the bank's page sending the frame to the handler's return route:
 * a request from the bank's site, so without the basket's SameSite=Lax cookie (by hand, the
 * app on localhost and the bank on 127.0.0.1: so in Chromium and Firefox). The answer, the
 * handler's page for the frame, sets no basket: Firefox refuses a cookie set on it, saying
 * so on the console, and a browser that took one would start another basket.
 */
export async function theFramedReturnSetsNoBasket(app: App, endpoint: string): Promise<void> {
  // A shopper with a basket makes the checkout, and a card opens its 3-D Secure.
  const basket = randomUUID();
  const call = (method: string, path: string, body: unknown) =>
    fetch(`${app.origin}${endpoint}${path}`, {
      method,
      headers: {
        origin: app.origin,
        'content-type': 'application/json',
        cookie: `basket=${basket}`,
      },
      body: JSON.stringify(body),
    });
  const created = await call('POST', '/checkouts', { order: { sku: 'mug' } });
  assert.equal(created.status, 201, await created.clone().text());
  const { id } = (await created.json()) as { id: string };
  const challenged = await call('PUT', `/checkouts/${id}`, cardBody('4200000000000042'));
  assert.equal(challenged.status, 202, await challenged.text());
  const back = await fetch(`${app.origin}${endpoint}/return?checkout_id=${id}`, {
    headers: {
      'sec-fetch-dest': 'iframe',
      'sec-fetch-mode': 'navigate',
      'sec-fetch-site': 'cross-site',
    },
  });
  assert.match(await back.text(), /Authentication finished/);
  assert.deepEqual(back.headers.getSetCookie(), []);
}
