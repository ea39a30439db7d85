import type { Page } from '@playwright/test';
import { expect, openShop, test, watchProblems } from './fixtures.ts';

// Every page of the demo, as a merchant trying it sees it in a fresh browser:
// no request answered 4xx/5xx (a missing favicon or locale file included) and
// no error or warning in the console.

/** Loads `url` in `page` and says what went wrong on the way. */
async function visit(page: Page, url: string): Promise<string[]> {
  const problems = await watchProblems(page);
  await page.goto(url, { waitUntil: 'networkidle' });
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
  '/in-person',
  '/examples/react/',
  '/examples/vue/',
];

for (const path of PAGES) {
  test(`${path} loads with no failed request and a quiet console`, async ({ page, shop }) => {
    expect(await visit(page, new URL(path, shop.url).href)).toEqual([]);
  });
}

test('the result page loads with no failed request and a quiet console', async ({
  browser,
  page,
  shop,
}) => {
  const id = await openShop(page, shop);
  expect(id).toBeTruthy();
  // In a browser of its own, as a shopper coming back from their bank arrives.
  const context = await browser.newContext();
  const url = new URL(`/result?checkout_id=${id}`, shop.url).href;
  expect(await visit(await context.newPage(), url)).toEqual([]);
  await context.close();
});
