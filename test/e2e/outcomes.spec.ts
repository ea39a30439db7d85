import {
  CARDS,
  expect,
  fillCard,
  openShop,
  pay,
  providerStatus,
  startShop,
  test,
} from './fixtures.ts';

// A declined amount (11.00), onFailed once: test/engines/flows.test.ts, in three engines.

test('a backend failure is a retryable error, and trying again pays', async ({
  page,
  shop,
  quiet,
}) => {
  quiet.failed(500);
  const id = await openShop(page, shop, '/?redirect=0');
  // The provider answers the next process call with a 500 (the sandbox's fault route).
  const fault = await shop.provider('POST', '/sandbox/faults', {
    method: 'PUT',
    path: `/v0.1/checkouts/${id}`,
    kind: 'error',
    status: 500,
    times: 1,
  });
  expect(fault.status).toBe(201);
  await fillCard(page, CARDS.paid);
  await pay(page);
  await expect(page.getByText('The payment could not be processed.')).toBeVisible();
  await expect(page.locator('#event-log')).toContainText('"retryable":true');
  expect(await providerStatus(shop, id)).toBe('PENDING');

  // What the user typed is still there: one more click pays.
  await expect(page.getByLabel('Name on card')).toHaveValue('Ada Lovelace');
  await fillCard(page, CARDS.paid);
  await pay(page);
  await expect(page.getByText('Payment successful')).toBeVisible();
  expect(await providerStatus(shop, id)).toBe('PAID');
});

test.describe('an expired checkout', () => {
  test('past its valid_until: paying is refused and nothing is charged', async ({
    page,
    quiet,
  }) => {
    // The process route's 409: the checkout is over.
    quiet.failed(409);
    // A shop of its own: the sandbox's clock is moved, which no other test should see.
    const shop = await startShop();
    try {
      const id = await openShop(page, shop, '/?redirect=0&expires_in=60');
      await fillCard(page, CARDS.paid);
      // The minute passes on the provider's clock, not the test's.
      const moved = await shop.provider('POST', '/sandbox/clock', { advanceMs: 61_000 });
      expect(moved.status).toBe(200);
      await pay(page);
      // Not retryable: the widget says so instead of offering a retry that cannot succeed.
      await expect(page.getByText('This payment is no longer valid')).toBeVisible();
      await expect(page.getByRole('button', { name: /Pay/ })).toHaveCount(0);
      await expect(page.locator('#event-log')).toContainText('"retryable":false');
      await expect(page.getByText('Payment successful')).toHaveCount(0);
      const checkout = (await (await shop.provider('GET', `/v0.1/checkouts/${id}`)).json()) as {
        status: string;
        transactions?: unknown[];
      };
      expect(checkout.status).toBe('PENDING');
      expect(checkout.transactions ?? []).toEqual([]);
    } finally {
      await shop.close();
    }
  });

  test('deactivated by the shop: its page shows Payment failed', async ({ page, shop, quiet }) => {
    quiet.failed(409);
    const id = await openShop(page, shop, '/?redirect=0');
    // The merchant's server gives up on the order (e.g. the stock ran out).
    expect((await shop.provider('DELETE', `/v0.1/checkouts/${id}`)).status).toBe(200);
    await fillCard(page, CARDS.paid);
    await pay(page);
    // The process route answers 409; the widget re-reads the checkout and reports what it is.
    await expect(page.getByText('Payment failed')).toBeVisible();
    await expect(page.locator('#event-log')).toContainText('payment-failure');
    expect(await providerStatus(shop, id)).toBe('EXPIRED');

    await page.goto(new URL(`/result?checkout_id=${id}`, shop.url).href);
    await expect(page.getByText('Payment failed')).toBeVisible();
  });
});
