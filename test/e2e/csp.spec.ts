import type { Page } from '@playwright/test';
import {
  CARDS,
  challengeFrame,
  expect,
  fillBoleto,
  fillCard,
  fillPerson,
  openShop,
  pay,
  providerStatus,
  type Shop,
  test,
} from './fixtures.ts';

// Every payment flow on /csp.html, whose policy is `default-src 'self'` plus the provider's
// origin for frames and form posts, with Trusted Types enforced
// (`require-trusted-types-for 'script'; trusted-types lit-html payment-widget`): the widget
// renders through Lit's 'lit-html' policy, loads its parts through its own 'payment-widget'
// policy, and writes no other HTML or script sink. A flow passes
// when the shopper sees the outcome, the provider agrees, and the browser reported no
// violation and no console error on the shop's pages.

interface Watch {
  problems: string[];
}

/** Records CSP violations (from the first script on) and console errors of the shop's pages. */
async function watch(page: Page, shop: Shop): Promise<Watch> {
  const shopOrigin = new URL(shop.url).origin;
  const watched: Watch = { problems: [] };
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      console.error(
        `CSP violation: ${event.effectiveDirective} blocked ${event.blockedURI || '(inline)'} at ${event.sourceFile}:${event.lineNumber}`,
      );
    });
  });
  page.on('console', (message) => {
    const from = message.location().url;
    const onShop = from === '' || from.startsWith(shopOrigin);
    if (message.type() === 'error' && onShop) watched.problems.push(message.text());
    else if (/Content.Security.Policy|Trusted ?Type/i.test(message.text())) {
      watched.problems.push(message.text());
    }
  });
  page.on('pageerror', (error) => watched.problems.push(`uncaught: ${error.message}`));
  return watched;
}

test('the page enforces Trusted Types: a raw HTML string is refused', async ({
  page,
  shop,
  quiet,
}) => {
  // The refusal the test provokes, which the browser reports.
  quiet.allow(/^error: This document requires 'TrustedHTML' assignment/);
  const response = await page.goto(new URL('/csp.html?redirect=0', shop.url).href);
  const csp = response?.headers()['content-security-policy'] ?? '';
  expect(csp).toContain("require-trusted-types-for 'script'");
  expect(csp).toContain('trusted-types lit-html payment-widget');
  await expect(page.getByRole('button', { name: /^Pay / })).toBeEnabled();
  const refused = await page.evaluate(() => {
    try {
      document.body.insertAdjacentHTML('beforeend', '<b>injected</b>');
      return false;
    } catch (error) {
      return error instanceof TypeError;
    }
  });
  expect(refused).toBe(true);
});

test('card without a challenge', async ({ page, shop }) => {
  const watched = await watch(page, shop);
  const id = await openShop(page, shop, '/csp.html?redirect=0');
  await fillCard(page, CARDS.paid);
  await pay(page);
  await expect(page.getByText('Payment successful')).toBeVisible();
  expect(await providerStatus(shop, id)).toBe('PAID');
  expect(watched.problems).toEqual([]);
});

test('3DS in the iframe', async ({ page, shop }) => {
  const watched = await watch(page, shop);
  const id = await openShop(page, shop, '/csp.html?redirect=0');
  await fillCard(page, CARDS.challenge);
  await pay(page);
  const frame = await challengeFrame(page);
  await frame.getByRole('button', { name: 'Complete authentication' }).click();
  await expect(page.getByText('Payment successful')).toBeVisible();
  expect(await providerStatus(shop, id)).toBe('PAID');
  expect(watched.problems).toEqual([]);
});

test('3DS as a full-page redirect', async ({ page, shop }) => {
  const watched = await watch(page, shop);
  const id = await openShop(page, shop, '/csp.html');
  await fillCard(page, CARDS.challenge);
  await pay(page);
  await page.getByRole('button', { name: 'Complete authentication' }).click();
  await expect(page).toHaveURL(new RegExp(`/result\\?checkout_id=${id}$`));
  await expect(page.getByText('Payment successful')).toBeVisible();
  expect(await providerStatus(shop, id)).toBe('PAID');
  expect(watched.problems).toEqual([]);
});

test('APM (iDEAL) through the bank page', async ({ page, shop }) => {
  const watched = await watch(page, shop);
  const id = await openShop(page, shop, '/csp.html');
  await page.getByRole('radio', { name: 'iDEAL' }).check();
  await fillPerson(page);
  await pay(page);
  await page.getByRole('button', { name: 'Approve payment' }).click();
  await expect(page).toHaveURL(new RegExp(`/result\\?checkout_id=${id}$`));
  await expect(page.getByText('Payment successful')).toBeVisible();
  expect(await providerStatus(shop, id)).toBe('PAID');
  expect(watched.problems).toEqual([]);
});

test('boleto voucher', async ({ page, shop }) => {
  const watched = await watch(page, shop);
  const id = await openShop(page, shop, '/csp.html?currency=BRL');
  await page.getByRole('radio', { name: 'Boleto' }).check();
  await fillBoleto(page);
  await pay(page);
  await expect(page.getByText('Pay this boleto at a bank or online')).toBeVisible();
  await expect(page.getByText('Payment pending')).toBeVisible();
  expect(await providerStatus(shop, id)).toBe('PENDING');
  expect(watched.problems).toEqual([]);
});
