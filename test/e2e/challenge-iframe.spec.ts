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

// `/?redirect=0`: the checkout has no redirect_url, so 3DS runs in the widget's iframe. Completing
// and failing it are test/engines/flows.test.ts's, in Chromium, Firefox and WebKit.
test.describe('3DS in the iframe', () => {
  test('cancel: back to the form, and the checkout can still be paid', async ({ page, shop }) => {
    const id = await openShop(page, shop, '/?redirect=0');
    await fillCard(page, CARDS.challenge);
    await pay(page);
    await challengeFrame(page);
    await page.getByRole('button', { name: 'Cancel' }).click();
    await expect(page.locator('payment-widget iframe')).toHaveCount(0);
    await expect(page.getByRole('button', { name: /^Pay / })).toBeEnabled();
    expect(await providerStatus(shop, id)).toBe('PENDING');

    await fillCard(page, CARDS.paid);
    await pay(page);
    await expect(page.getByText('Payment successful')).toBeVisible();
    expect(await providerStatus(shop, id)).toBe('PAID');
  });
});
