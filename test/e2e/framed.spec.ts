import type { FrameLocator, Page } from '@playwright/test';
import {
  CARDS,
  challengeFrame,
  expect,
  fillCard,
  fillPerson,
  openShop,
  pay,
  providerStatus,
  type Shop,
  test,
} from './fixtures.ts';
import { basketCheckout } from './shop.ts';

// The shop's page inside a frame of the merchant's own page (a checkout step in an iframe):
// the full-page flows of `/` (3DS on the issuer's page, a bank's page) run in that frame,
// and come back through the handler's /return, which the browser asks for as a frame. The
// frame must end on the result page, showing the outcome, as a whole page does.

/** The shop's `/` in its frame, and the basket's checkout there. */
interface Framed {
  frame: FrameLocator;
  id: string;
}

/** Opens the shop's `/` framed by a page of the shop's own origin; the frame, ready to pay. */
async function openFramed(page: Page, shop: Shop): Promise<Framed> {
  const outer = new URL('/checkout-step', shop.url).href;
  await page.route(outer, (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: '<!doctype html><title>Your order</title><h1>Your order</h1><iframe title="Payment" src="/" style="width:100%;height:700px;border:0"></iframe>',
    }),
  );
  await page.goto(outer);
  const frame = page.frameLocator('iframe[title="Payment"]');
  await expect(frame.getByRole('button', { name: /^Pay / })).toBeEnabled();
  const cookies = await page.context().cookies(shop.url);
  const id = await basketCheckout(shop, cookies.find((c) => c.name === 'shop_basket')?.value);
  return { frame, id };
}

/** Pays with the challenge card in the frame: 3DS on the issuer's page, in the frame, to the end. */
async function challengeInFrame(page: Page, shop: Shop, { frame, id }: Framed) {
  await fillCard(frame, CARDS.challenge);
  await pay(frame);
  await frame.getByRole('button', { name: 'Complete authentication' }).click();
  await expect(frame.getByText('Payment successful')).toBeVisible();
  await expect(page).toHaveURL(/\/checkout-step$/);
  expect(await providerStatus(shop, id)).toBe('PAID');
}

test('3DS on the issuer’s page in a framed shop page ends on the result page in the frame', async ({
  page,
  shop,
}) => {
  // Before: the frame stayed on the handler's "Authentication finished." and nothing more.
  await challengeInFrame(page, shop, await openFramed(page, shop));
});

test('iDEAL in a framed shop page ends on the result page in the frame', async ({ page, shop }) => {
  const { frame, id } = await openFramed(page, shop);
  await frame.getByRole('radio', { name: 'iDEAL' }).check();
  await fillPerson(frame);
  await pay(frame);
  await frame.getByRole('button', { name: 'Decline payment' }).click();
  await expect(frame.getByText('Payment failed')).toBeVisible();
  await expect(frame.getByRole('button', { name: 'Try another way to pay' })).toBeVisible();
  expect(await providerStatus(shop, id)).toBe('FAILED');
});

test('the widget’s own 3DS frame, on a checkout with a redirect_url, stays on the handler’s page', async ({
  page,
  shop,
}) => {
  const id = await openShop(page, shop, '/');
  await page
    .locator('payment-widget')
    .evaluate((widget) => widget.setAttribute('challenge', 'iframe'));
  const loaded: string[] = [];
  page.on('framenavigated', (frame) => loaded.push(frame.url()));
  await fillCard(page, CARDS.challenge);
  await pay(page);
  const challenge = await challengeFrame(page);
  await challenge.getByRole('button', { name: 'Complete authentication' }).click();
  await expect(page.getByText('Payment successful')).toBeVisible();
  expect(await providerStatus(shop, id)).toBe('PAID');
  // The challenge came back through the handler's frame page, which went nowhere from there.
  expect(loaded.some((url) => url.includes('/payments/return?'))).toBe(true);
  expect(loaded.filter((url) => url.includes('/result?'))).toEqual([]);
});

test('a framed shop page whose <base target> names its parent, as Storybook’s preview frame does, takes 3DS on the issuer’s page in the frame', async ({
  page,
  shop,
}) => {
  const framed = await openFramed(page, shop);
  await framed.frame.locator('head').evaluate((head) => {
    const base = document.createElement('base');
    base.target = '_parent';
    head.prepend(base);
  });
  // Before: the form went where <base> said, and the whole page left for the issuer's.
  await challengeInFrame(page, shop, framed);
});
