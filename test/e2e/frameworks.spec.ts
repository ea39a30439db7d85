import { existsSync } from 'node:fs';
import { CARDS, expect, fillCard, pay, test } from './fixtures.ts';

// The React 19 and Vue 3 pages (examples/, its own package.json) create their
// checkout from an `order` the widget sends; the shop prices it (12.50 EUR).
for (const framework of ['react', 'vue'] as const) {
  test(`${framework}: the element pays and the framework hears payment-success`, async ({
    page,
    shop,
  }) => {
    const built = new URL(`../../examples/dist/${framework}/index.html`, import.meta.url);
    expect(
      existsSync(built),
      'build the examples first: npm --prefix examples ci && npm --prefix examples run build',
    ).toBe(true);
    await page.goto(new URL(`/examples/${framework}/`, shop.url).href);
    await expect(page.getByRole('button', { name: 'Pay €12.50' })).toBeEnabled();
    await page.getByRole('radio', { name: 'Card' }).check();
    await fillCard(page, CARDS.paid);
    await pay(page);
    await expect(page.getByText('Payment successful')).toBeVisible();
    await expect(page.getByText(/^Order paid \(checkout [\w-]+\)$/)).toBeVisible();
  });
}
