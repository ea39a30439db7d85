import {
  buyAgain,
  CARDS,
  expect,
  fillBoleto,
  fillCard,
  hookRunsOf,
  openShop,
  pay,
  providerStatus,
  test,
} from './fixtures.ts';

test('boleto: the voucher is shown, and once the bank settles it the shop sees PAID', async ({
  page,
  shop,
}) => {
  const id = await openShop(page, shop, '/?currency=BRL');
  await page.getByRole('radio', { name: 'Boleto' }).check();
  await fillBoleto(page);
  await pay(page);

  await expect(page.getByText('Pay this boleto at a bank or online')).toBeVisible();
  const provider = (await (await shop.provider('GET', `/v0.1/checkouts/${id}`)).json()) as {
    boleto?: { barcode?: string };
  };
  const digits = (provider.boleto?.barcode ?? '').replace(/\D/g, '');
  expect(digits.length).toBeGreaterThanOrEqual(44);
  // Shown grouped for reading; the same digits as the provider's.
  const shown = await page.locator('payment-widget [part~="voucher-barcode"]').textContent();
  expect((shown ?? '').replace(/\D/g, '')).toBe(digits);
  await expect(page.getByRole('link', { name: 'Open the boleto' })).toBeVisible();
  await expect(page.getByText('Payment pending')).toBeVisible();
  expect(await providerStatus(shop, id)).toBe('PENDING');

  // The shopper pays at a bank; the sandbox's control route plays the bank.
  const settled = await shop.provider('POST', `/sandbox/checkouts/${id}/settle`, {});
  expect(settled.status).toBe(200);
  // The backend confirms (its webhook reads the provider) and the result page says so.
  expect(await hookRunsOf(shop, id)).toEqual([{ hook: 'paid', id, status: 'PAID' }]);
  await page.goto(new URL(`/result?checkout_id=${id}`, shop.url).href);
  await expect(page.getByText('Payment successful')).toBeVisible();
});

test('saved card: a first payment saves the card, a second pays with its token', async ({
  page,
  shop,
}) => {
  const first = await openShop(page, shop, '/?account=1&redirect=0');
  await fillCard(page, CARDS.paid);
  await page.getByLabel('Save this card for future payments').check();
  await pay(page);
  await expect(page.getByText('Payment successful')).toBeVisible();
  expect(await providerStatus(shop, first)).toBe('PAID');

  // A new order: a new basket, back on the same page.
  await buyAgain(page);
  const second = await openShop(page, shop, '/?account=1&redirect=0');
  const saved = page.getByRole('radio', { name: /ending in 0091/ });
  await expect(saved).toBeChecked();
  // Paying by token: no card fields to fill.
  await expect(page.getByLabel('Card number')).toHaveCount(0);
  await pay(page);
  await expect(page.getByText('Payment successful')).toBeVisible();
  const checkout = (await (await shop.provider('GET', `/v0.1/checkouts/${second}`)).json()) as {
    status: string;
    payment_instrument?: { token?: string };
  };
  expect(checkout.status).toBe('PAID');
  expect(checkout.payment_instrument?.token).toBeTruthy();
});

test('saved cards need the shopper session: another browser cannot list them', async ({
  page,
  playwright,
  shop,
}) => {
  await openShop(page, shop, '/?account=1&redirect=0');
  const route = new URL('/payments/customers/demo-shopper/payment-instruments', shop.url).href;
  // The shopper's own browser carries the session cookie the page set.
  expect((await page.request.get(route)).status()).toBe(200);
  const stranger = await playwright.request.newContext();
  expect((await stranger.get(route)).status()).toBe(403);
  await stranger.dispose();
});
