import type { Page } from '@playwright/test';
import type { Checkout } from '../../src/schemas/index.ts';
import {
  buyAgain,
  CARDS,
  challengeFrame,
  expect,
  fillCard,
  openShop,
  pay,
  type Shop,
  startShop,
  test,
} from './fixtures.ts';

// The merchant's fulfilment (an ERP call, an email) never holds the shopper: with an onPaid
// that takes 15 s, or one that never returns, "Payment successful" shows within 3 s of the
// provider confirming, and onPaid still runs exactly once per order.

/** From the click that makes the provider confirm to the outcome on screen. */
const SHOWN_WITHIN_MS = 3_000;
const SLOW_HOOK_MS = 15_000;

/** The three ways a card payment ends, each from the click after which the provider confirms. */
const FLOWS: { name: string; pay(page: Page, shop: Shop): Promise<string> }[] = [
  {
    name: 'a card without 3DS',
    async pay(page, shop) {
      const id = await openShop(page, shop, '/?redirect=0');
      await fillCard(page, CARDS.paid);
      await pay(page);
      return id;
    },
  },
  {
    name: '3DS in the iframe',
    async pay(page, shop) {
      const id = await openShop(page, shop, '/?redirect=0');
      await fillCard(page, CARDS.challenge);
      await pay(page);
      const frame = await challengeFrame(page);
      await frame.getByRole('button', { name: 'Complete authentication' }).click();
      return id;
    },
  },
  {
    name: '3DS as a full page (its result page)',
    async pay(page, shop) {
      const id = await openShop(page, shop, '/');
      await fillCard(page, CARDS.challenge);
      await pay(page);
      await page.getByRole('button', { name: 'Complete authentication' }).click();
      return id;
    },
  },
];

/** Runs every flow, each shown as paid within the limit; answers the checkout ids. */
async function payEveryWay(page: Page, shop: Shop): Promise<string[]> {
  const ids: string[] = [];
  for (const flow of FLOWS) {
    const id = await flow.pay(page, shop);
    await expect(page.getByText('Payment successful'), flow.name).toBeVisible({
      timeout: SHOWN_WITHIN_MS,
    });
    ids.push(id);
    // The next order is the shopper's next basket.
    await buyAgain(page);
  }
  return ids;
}

const runs = (shop: Shop, id: string) => shop.hooks.filter((h) => h.id === id && h.hook === 'paid');

test.describe('an onPaid that takes 15 s', () => {
  let shop: Shop;
  const finished: string[] = [];
  test.beforeAll(async () => {
    shop = await startShop({
      fulfil: async (checkout: Checkout) => {
        await new Promise((resolve) => setTimeout(resolve, SLOW_HOOK_MS));
        finished.push(checkout.id ?? '');
      },
    });
  });
  test.afterAll(async () => {
    await shop.close();
  });

  test('holds no shopper, and still runs once per order', async ({ page }) => {
    test.setTimeout(SLOW_HOOK_MS * 2 + 60_000);
    const ids = await payEveryWay(page, shop);
    // Every fulfilment finishes in its own time, behind the pages the shoppers already saw.
    await expect
      .poll(() => ids.every((id) => finished.includes(id)), { timeout: SLOW_HOOK_MS * 2 })
      .toBe(true);
    for (const id of ids) expect(runs(shop, id), id).toHaveLength(1);
  });
});

test.describe('an onPaid that never returns', () => {
  let shop: Shop;
  test.beforeAll(async () => {
    shop = await startShop({ fulfil: () => new Promise<void>(() => {}) });
  });
  test.afterAll(async () => {
    await shop.close();
  });

  test('holds no shopper, and is not run a second time', async ({ page }) => {
    test.setTimeout(60_000);
    const ids = await payEveryWay(page, shop);
    for (const id of ids) expect(runs(shop, id), id).toHaveLength(1);
    // Later reports (the widget reading the checkout again) find the hook running: not again.
    for (const id of ids) {
      const again = await fetch(new URL(`/payments/checkouts/${id}`, shop.url));
      expect(again.status).toBe(200);
      expect(runs(shop, id), id).toHaveLength(1);
    }
  });
});
