import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import {
  CARDS,
  expect,
  fillCard,
  fillPerson,
  openShop,
  pay,
  providerStatus,
  test,
} from './fixtures.ts';

// The home page's checkout has a redirect_url: 3DS and the banks take over the
// whole page and come back through the handler's /return to the result page,
// where the widget shows the status it reads from the backend. The sandbox's pages on the way
// are the ones a shopper reads in a test shop: each passes axe, once per page.

/** axe's findings on the whole page (the issuer's or the bank's), as `rule: target`. */
async function violations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')}`));
}

test.describe('3DS as a full-page redirect', () => {
  for (const [button, shown, status] of [
    ['Complete authentication', 'Payment successful', 'PAID'],
    ['Fail authentication', 'Payment failed', 'FAILED'],
  ] as const) {
    test(`${button} lands on the result page: ${shown}`, async ({ page, shop }) => {
      const id = await openShop(page, shop, '/');
      await fillCard(page, CARDS.challenge);
      await pay(page);
      const answer = page.getByRole('button', { name: button });
      await expect(answer).toBeVisible();
      if (status === 'PAID') expect(await violations(page)).toEqual([]);
      await answer.click();
      await expect(page).toHaveURL(new RegExp(`/result\\?checkout_id=${id}$`));
      await expect(page.getByText(shown)).toBeVisible();
      expect(await providerStatus(shop, id)).toBe(status);
    });
  }
});

const BANKS = [
  { method: 'iDEAL', path: '/' },
  { method: 'Bancontact', path: '/' },
  { method: 'BLIK', path: '/?currency=PLN' },
] as const;

test.describe('bank redirects', () => {
  for (const { method, path } of BANKS) {
    for (const [button, shown, status] of [
      ['Approve payment', 'Payment successful', 'PAID'],
      ['Decline payment', 'Payment failed', 'FAILED'],
    ] as const) {
      test(`${method}: ${button} -> ${shown}`, async ({ page, shop }) => {
        const id = await openShop(page, shop, path);
        await page.getByRole('radio', { name: method }).check();
        await fillPerson(page);
        await pay(page);
        const answer = page.getByRole('button', { name: button });
        await expect(answer).toBeVisible();
        if (status === 'PAID') expect(await violations(page)).toEqual([]);
        await answer.click();
        await expect(page).toHaveURL(new RegExp(`/result\\?checkout_id=${id}$`));
        await expect(page.getByText(shown)).toBeVisible();
        expect(await providerStatus(shop, id)).toBe(status);
        // No card was declined: the shopper paid with their bank, and may pick another way.
        if (status === 'FAILED') {
          await expect(page.getByRole('button', { name: 'Try another way to pay' })).toBeVisible();
        }
      });
    }
  }
});
