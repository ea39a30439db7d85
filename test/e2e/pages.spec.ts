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
  // The page's own module (the widget adds its parts' checked scripts beside it).
  await expect(page.locator('script[type="module"][src="demo/module.js"]')).toHaveCount(1);
  await expect(page.locator('script[src$=".iife.js"]')).toHaveCount(0);
  await fillCard(page, CARDS.paid);
  await pay(page);
  await expect(page.getByText('Payment successful')).toBeVisible();
  expect(await providerStatus(shop, id)).toBe('PAID');
});

test('/csp.html: 3DS in the iframe under a strict CSP, with no violation', async ({
  page,
  shop,
}) => {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  const response = await page.goto(new URL('/csp.html?redirect=0', shop.url).href);
  const csp = response?.headers()['content-security-policy'] ?? '';
  expect(csp).toContain("default-src 'self'");
  expect(csp).not.toContain('unsafe-inline');
  await page.evaluate(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      console.error(`Content Security Policy violation: ${e.violatedDirective} ${e.blockedURI}`);
    });
  });
  await expect(page.getByRole('button', { name: /^Pay / })).toBeEnabled();
  await fillCard(page, CARDS.challenge);
  await pay(page);
  const frame = await challengeFrame(page);
  await frame.getByRole('button', { name: 'Complete authentication' }).click();
  await expect(page.getByText('Payment successful')).toBeVisible();
  expect(violations).toEqual([]);
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
