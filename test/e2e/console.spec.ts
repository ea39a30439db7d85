import type { Browser } from '@playwright/test';
import { expect, test } from './fixtures.ts';

// Every page of the demo, as a merchant trying it sees it in a fresh browser:
// no request answered 4xx/5xx (a missing favicon or locale file included) and
// no error or warning in the console.

async function visit(browser: Browser, url: string): Promise<string[]> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`${response.status()} ${response.url()}`);
  });
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') {
      problems.push(`${message.type()}: ${message.text()}`);
    }
  });
  page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
  await page.goto(url, { waitUntil: 'networkidle' });
  await context.close();
  return problems;
}

const PAGES = [
  '/',
  '/?redirect=0',
  '/?amount=11.00&redirect=0',
  '/?currency=PLN',
  '/?currency=BRL',
  '/?locale=de-DE',
  '/?account=1&redirect=0',
  '/module.html',
  '/csp.html?redirect=0',
  '/in-person',
  '/examples/react/',
  '/examples/vue/',
];

for (const path of PAGES) {
  test(`${path} loads with no failed request and a quiet console`, async ({ browser, shop }) => {
    expect(await visit(browser, new URL(path, shop.url).href)).toEqual([]);
  });
}

test('the result page loads with no failed request and a quiet console', async ({
  browser,
  page,
  shop,
}) => {
  await page.goto(shop.url);
  const id = await page.locator('payment-widget').getAttribute('checkout-id');
  expect(id).toBeTruthy();
  const url = new URL(`/result?checkout_id=${id}`, shop.url).href;
  expect(await visit(browser, url)).toEqual([]);
});
