import type { Page } from '@playwright/test';
import { removeConstructableStylesheets } from '../shared/no-constructable-stylesheets.ts';
import { CARDS, expect, fillCard, pay, test } from './fixtures.ts';

// A merchant page with a strict Content-Security-Policy that allows scripts and
// styles by nonce only, loading the script-tag build with that nonce, in a
// browser without constructable stylesheets (Safari and iOS before 16.4):
// Lit then styles the widget with <style> elements, which the policy admits
// only with the page's nonce. The widget takes it from its own <script nonce>.

const NONCE = 'cGF5bWVudC13aWRnZXQ';

async function nonceShop(page: Page, shopUrl: string, scriptNonce: string): Promise<string[]> {
  const url = new URL('/nonce-shop.html', shopUrl).href;
  await page.route(url, (route) =>
    route.fulfill({
      contentType: 'text/html; charset=utf-8',
      headers: {
        'content-security-policy': [
          "default-src 'self'",
          `script-src 'nonce-${NONCE}'`,
          `style-src 'nonce-${NONCE}'`,
          "base-uri 'none'",
          "object-src 'none'",
        ].join('; '),
      },
      body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Nonce shop</title>
<link rel="icon" href="/demo/favicon.svg"></head><body>
<payment-widget endpoint="/payments" order='{"sku":"mug"}'></payment-widget>
<script nonce="${scriptNonce}" src="/assets/payment-widget.iife.js"></script>
</body></html>`,
    }),
  );
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content.Security.Policy/i.test(message.text())) violations.push(message.text());
  });
  await page.addInitScript(removeConstructableStylesheets);
  await page.goto(url);
  return violations;
}

test('a strict-CSP page with a nonce gets a styled widget without constructable stylesheets', async ({
  page,
  shop,
}) => {
  const violations = await nonceShop(page, shop.url, NONCE);
  await expect(page.getByRole('button', { name: 'Pay €12.50' })).toBeEnabled();
  expect(await page.evaluate(() => 'adoptedStyleSheets' in Document.prototype)).toBe(false);
  const styles = page.locator('payment-widget style');
  expect(await styles.count()).toBeGreaterThan(0);
  // The <style> elements carry the nonce, so the policy lets them apply.
  expect(await styles.evaluateAll((all) => all.map((s) => (s as HTMLStyleElement).nonce))).toEqual(
    Array(await styles.count()).fill(NONCE),
  );
  const button = page.getByRole('button', { name: 'Pay €12.50' });
  await expect(button).toHaveCSS('border-top-left-radius', '6px');
  await expect(page.getByLabel('Card number')).toHaveCSS('border-top-left-radius', '6px');
  await fillCard(page, CARDS.paid);
  await pay(page);
  await expect(page.getByText('Payment successful')).toBeVisible();
  expect(violations).toEqual([]);
});

test('the same page without the nonce on the widget’s script loads no widget at all', async ({
  page,
  shop,
  quiet,
}) => {
  // The control: the policy is enforced (the script without the nonce is refused, and the
  // browser says so).
  quiet.allow(/^error: Loading the script .* violates the following Content Security Policy/);
  const violations = await nonceShop(page, shop.url, 'wrong-nonce');
  await expect(page.locator('payment-widget')).toBeAttached();
  await expect.poll(() => violations.length).toBeGreaterThan(0);
  expect(await page.evaluate(() => customElements.get('payment-widget'))).toBeUndefined();
});
