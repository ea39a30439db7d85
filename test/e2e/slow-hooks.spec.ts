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
  webhooksAnswered,
} from './fixtures.ts';

// The merchant's fulfilment (an ERP call, an email) never holds the shopper: with an onPaid
// that is still running (held until the test lets it go), or one that never returns,
// "Payment successful" shows once the provider confirms, and onPaid still runs exactly once
// per order.

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

/**
 * Runs every flow, each shown as paid while its onPaid has not returned; `shown` runs then
 * (before the next order). Answers the checkout ids.
 */
async function payEveryWay(
  page: Page,
  shop: Shop,
  shown: (id: string) => Promise<void> = async () => {},
): Promise<string[]> {
  const ids: string[] = [];
  for (const flow of FLOWS) {
    const id = await flow.pay(page, shop);
    await expect(page.getByText('Payment successful'), flow.name).toBeVisible();
    await shown(id);
    ids.push(id);
    // The next order is the shopper's next basket.
    await buyAgain(page);
  }
  return ids;
}

/** Longer than any test here, however busy the machine. */
const LONG_LEASE_MS = 60 * 60_000;

const runs = (shop: Shop, id: string) => shop.hooks.filter((h) => h.id === id && h.hook === 'paid');

/** The provider's notification about `id`, sent to the shop as the sandbox sends it. */
function webhook(shop: Shop, id: string): Promise<Response> {
  return fetch(new URL('/payments/webhook', shop.url), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ event_type: 'CHECKOUT_STATUS_CHANGED', id }),
  });
}

test.describe('an onPaid still running when the shopper is told', () => {
  let shop: Shop;
  /** Per checkout, what lets its onPaid return. */
  const release = new Map<string, () => void>();
  const finished: string[] = [];
  test.beforeAll(async () => {
    shop = await startShop({
      // Held hooks keep their claims for as long as the test may take: a lease that ran
      // out hands the hook to the next report (a crash's recovery), not what is tested here.
      leaseMs: LONG_LEASE_MS,
      fulfil: (checkout: Checkout) =>
        new Promise<void>((resolve) => {
          release.set(checkout.id ?? '', () => {
            finished.push(checkout.id ?? '');
            resolve();
          });
        }),
    });
  });
  test.afterAll(async () => {
    for (const done of release.values()) done();
    await shop.close();
  });

  test('holds no shopper, and still runs once per order', async ({ page }) => {
    const ids = await payEveryWay(page, shop, async (id) => {
      // The shopper was told while the fulfilment could not have returned; now it may.
      await expect.poll(() => release.has(id), `onPaid of ${id} started`).toBe(true);
      release.get(id)?.();
    });
    // Every fulfilment finishes in its own time, behind the pages the shoppers already saw.
    await expect.poll(() => ids.every((id) => finished.includes(id))).toBe(true);
    // Counted once every webhook about each order (what would run it again) is answered.
    for (const id of ids) await webhooksAnswered(shop, id);
    for (const id of ids) expect(runs(shop, id), id).toHaveLength(1);
  });
});

test.describe('an onPaid that never returns', () => {
  let shop: Shop;
  test.beforeAll(async () => {
    shop = await startShop({ leaseMs: LONG_LEASE_MS, fulfil: () => new Promise<void>(() => {}) });
  });
  test.afterAll(async () => {
    await shop.close();
  });

  test('holds no shopper, and is not run a second time', async ({ page }) => {
    const ids = await payEveryWay(page, shop);
    for (const id of ids) expect(runs(shop, id), id).toHaveLength(1);
    // Later reports (the widget reading the checkout again) find the hook running: not again.
    for (const id of ids) {
      const again = await fetch(new URL(`/payments/checkouts/${id}`, shop.url));
      expect(again.status).toBe(200);
      // The webhook route answers only once its report has looked at the claim: "still
      // running, send it again later" (503), so the count below is after that report.
      expect((await webhook(shop, id)).status).toBe(503);
      expect(runs(shop, id), id).toHaveLength(1);
    }
  });
});
