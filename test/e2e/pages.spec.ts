import AxeBuilder from '@axe-core/playwright';
import {
  CARDS,
  challengeFrame,
  expect,
  fillCard,
  openShop,
  pay,
  providerStatus,
  test,
} from './fixtures.ts';

test('the home page has no axe violations', async ({ page, shop }) => {
  await openShop(page, shop, '/');
  const results = await new AxeBuilder({ page }).analyze();
  expect(
    results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(', ')}`),
  ).toEqual([]);
});

test('the home page sells 10.00 EUR and offers card, iDEAL and Bancontact', async ({
  page,
  shop,
}) => {
  await openShop(page, shop, '/');
  await expect(page.getByRole('button', { name: 'Pay €10.00' })).toBeVisible();
  for (const method of ['Card', 'iDEAL', 'Bancontact']) {
    await expect(page.getByRole('radio', { name: method })).toBeVisible();
  }
});

test('/module.html pays through the ES module build', async ({ page, shop }) => {
  const id = await openShop(page, shop, '/module.html?redirect=0');
  // The page's own module tag, from widgetTags() (the widget adds its parts' checked scripts).
  await expect(
    page.locator('script[type="module"][src="assets/payment-widget.js"][integrity^="sha384-"]'),
  ).toHaveCount(1);
  await expect(page.locator('script[src$=".iife.js"]')).toHaveCount(0);
  await fillCard(page, CARDS.paid);
  await pay(page);
  await expect(page.getByText('Payment successful')).toBeVisible();
  expect(await providerStatus(shop, id)).toBe('PAID');
});

// Every shop page is sent with pageSecurityHeaders() (server-example.spec.ts checks the
// headers), so every flow of this suite runs under that policy, and fails on any violation
// the browser logs (fixtures.ts, `quiet`). Here: the policy is enforced, not only sent.
test('the shop page enforces Trusted Types: a raw HTML string is refused', async ({
  page,
  shop,
  quiet,
}) => {
  // The refusal the test provokes, which the browser reports.
  quiet.allow(/^error: This document requires 'TrustedHTML' assignment/);
  await openShop(page, shop, '/?redirect=0');
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

test('keyboard only: Tab, typing, Enter and Space pay a card with 3DS in the iframe', async ({
  page,
  shop,
}) => {
  const id = await openShop(page, shop, '/?redirect=0');
  const keyboard = page.keyboard;
  /** The label of the focused control, looking through shadow roots and frames. */
  const focused = () =>
    page.evaluate(() => {
      let element: Element | null = document.activeElement;
      while (element?.shadowRoot?.activeElement) element = element.shadowRoot.activeElement;
      if (element instanceof HTMLIFrameElement) return 'iframe';
      const input = element as HTMLInputElement | null;
      return input?.labels?.[0]?.textContent?.trim() ?? input?.textContent?.trim() ?? '';
    });
  async function tabTo(label: string): Promise<void> {
    for (let i = 0; i < 15; i += 1) {
      if ((await focused()) === label) return;
      await keyboard.press('Tab');
    }
    throw new Error(`Tab never reached "${label}" (at "${await focused()}")`);
  }

  await tabTo('Card number');
  await keyboard.type(CARDS.challenge);
  await keyboard.press('Tab');
  expect(await focused()).toBe('Expiry date');
  await keyboard.type('1234');
  await keyboard.press('Tab');
  await keyboard.type('123');
  await keyboard.press('Tab');
  expect(await focused()).toBe('Name on card');
  await keyboard.type('Ada Lovelace');
  await keyboard.press('Enter');

  const frame = await challengeFrame(page);
  const complete = frame.getByRole('button', { name: 'Complete authentication' });
  for (let i = 0; i < 15; i += 1) {
    if (await complete.evaluate((button) => button === document.activeElement)) break;
    await keyboard.press('Tab');
  }
  await expect(complete).toBeFocused();
  await keyboard.press('Space');
  await expect(page.getByText('Payment successful')).toBeVisible();
  expect(await providerStatus(shop, id)).toBe('PAID');
});
