import type { Page, Route } from '@playwright/test';
import { scaled } from '../shared/until.ts';
import {
  CARDS,
  challengeFrame,
  expect,
  fillCard,
  openShop,
  pay,
  type Shop,
  test,
} from './fixtures.ts';

// The answer to Pay lost on the way back (a phone changing networks): the widget reads the
// checkout back and tells the truth, with no further click; lost on the way there: the
// form comes back with a retryable error and the card kept, and Pay works.

/** The checkout's transactions at the provider: how many times the card was charged. */
async function charges(shop: Shop, id: string): Promise<number> {
  const response = await shop.provider('GET', `/v0.1/checkouts/${id}`);
  const checkout = (await response.json()) as { transactions?: { status?: string }[] };
  return (checkout.transactions ?? []).filter((t) => t.status === 'SUCCESSFUL').length;
}

const isPay = (url: URL, method: string) =>
  method === 'PUT' && /\/payments\/checkouts\/[^/]+$/.test(url.pathname);

/**
 * Pay reaches the backend, which answers `status` (200: the provider charged; 202: it asks
 * for a step); then `lose` keeps the answer away.
 */
async function loseTheAnswer(
  page: Page,
  lose: (route: Route) => Promise<void>,
  status = 200,
): Promise<void> {
  await page.route(
    (url) => url.pathname.startsWith('/payments/checkouts/'),
    async (route) => {
      if (!isPay(new URL(route.request().url()), route.request().method())) {
        await route.continue();
        return;
      }
      expect((await route.fetch()).status()).toBe(status);
      await lose(route);
    },
  );
}

test('lost after the backend forwarded it: Payment successful with no further click, charged once', async ({
  page,
  shop,
  quiet,
}) => {
  quiet.failed('net::ERR_CONNECTION_RESET');
  const id = await openShop(page, shop, '/?redirect=0');
  // The backend gets the payment and the provider charges; the answer never arrives.
  await loseTheAnswer(page, (route) => route.abort('connectionreset'));
  await fillCard(page, CARDS.paid);
  await pay(page);
  await expect(page.getByText('Payment successful')).toBeVisible();
  await expect(page.locator('#event-log')).not.toContainText('payment-error');
  expect(await charges(shop, id)).toBe(1);
});

test('lost before it reached the backend: a retryable error, the card kept, and Pay succeeds', async ({
  page,
  shop,
  quiet,
}) => {
  quiet.failed('net::ERR_INTERNET_DISCONNECTED');
  const id = await openShop(page, shop, '/?redirect=0');
  let dropped = 0;
  await page.route(
    (url) => url.pathname.startsWith('/payments/checkouts/'),
    async (route) => {
      if (dropped === 0 && isPay(new URL(route.request().url()), route.request().method())) {
        dropped += 1;
        await route.abort('internetdisconnected');
        return;
      }
      await route.continue();
    },
  );
  await fillCard(page, CARDS.paid);
  await pay(page);
  // In the widget's live region (the page's event log shows the event's message too).
  await expect(page.locator('payment-widget [part~=status]')).toHaveText(
    'We could not reach the payment service. Check your connection and try again.',
  );
  await expect(page.locator('#event-log')).toContainText('"retryable":true');
  await expect(page.getByLabel('Card number')).toHaveValue('4200 0000 0000 0091');
  expect(await charges(shop, id)).toBe(0);

  await pay(page);
  await expect(page.getByText('Payment successful')).toBeVisible();
  expect(await charges(shop, id)).toBe(1);
});

test('charged, then the phone offline before the answer and the read-back: back online, Payment successful, charged once', async ({
  page,
  context,
  shop,
  quiet,
}) => {
  quiet.failed('net::ERR_INTERNET_DISCONNECTED');
  const id = await openShop(page, shop, '/?redirect=0');
  // The provider charges; the network goes before the answer comes back.
  await loseTheAnswer(page, async (route) => {
    await context.setOffline(true);
    await route.abort('internetdisconnected');
  });
  await fillCard(page, CARDS.paid);
  await pay(page);
  // The read-back's tries (about 10 s) fail offline too: the form and Pay come back.
  await expect(page.locator('payment-widget [part~=status]')).toHaveText(
    'We could not reach the payment service. Check your connection and try again.',
    { timeout: scaled(20_000) },
  );
  expect(await charges(shop, id)).toBe(1);
  // Before: nothing changed once online; the shopper was left to press Pay again.
  await context.setOffline(false);
  await expect(page.getByText('Payment successful')).toBeVisible();
  expect(await charges(shop, id)).toBe(1);
});

test('a 3DS challenge asked for, its answer lost: the challenge shows from the checkout read back, with focus, nothing loaded again, charged once', async ({
  page,
  shop,
  quiet,
}) => {
  quiet.failed('net::ERR_CONNECTION_RESET');
  const id = await openShop(page, shop, '/?redirect=0');
  const asked: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/payments/')) asked.push(`${request.method()} ${url.pathname}`);
  });
  // The provider asks for the challenge (the handler answers 202); the answer never arrives.
  await loseTheAnswer(page, (route) => route.abort('connectionreset'), 202);
  await fillCard(page, CARDS.challenge);
  await page.getByRole('button', { name: /^Pay / }).focus();
  await page.keyboard.press('Enter');
  const frame = await challengeFrame(page);
  // Before: the widget loaded again (the basket's checkout asked for, its methods fetched,
  // payment-ready heard a second time), and focus was left on the page.
  await expect(
    page.getByRole('group', { name: 'Confirm the payment with your bank' }),
  ).toBeFocused();
  expect(asked).toEqual([`PUT /payments/checkouts/${id}`, `GET /payments/checkouts/${id}`]);
  expect(
    await page.evaluate(() => (window as { paymentReadyCount?: number }).paymentReadyCount),
  ).toBe(1);
  await frame.getByRole('button', { name: 'Complete authentication' }).click();
  await expect(page.getByText('Payment successful')).toBeVisible();
  expect(await charges(shop, id)).toBe(1);
});

test('a 3DS challenge asked for as the phone went offline: payment-error and "Try again", back online the challenge shows by itself, charged once', async ({
  page,
  context,
  shop,
  quiet,
}) => {
  quiet.failed('net::ERR_INTERNET_DISCONNECTED');
  // The step part, and the part that would judge whether its file was tampered with.
  quiet.allow(/^error: payment-widget: its "(step|diagnostics)" part could not load /);
  const id = await openShop(page, shop, '/?redirect=0');
  // The provider takes its time to ask for the challenge: the network goes meanwhile. The
  // request already on its way gets its answer (202); the challenge's part, asked for only
  // now, cannot come.
  await shop.provider('POST', '/sandbox/faults', {
    method: 'PUT',
    path: `/v0.1/checkouts/${id}`,
    kind: 'latency',
    delayMs: 2000,
    times: 1,
  });
  await fillCard(page, CARDS.challenge);
  const sent = page.waitForRequest((request) => isPay(new URL(request.url()), request.method()));
  await pay(page);
  await sent;
  await context.setOffline(true);
  await expect(page.locator('payment-widget [part~=status]')).toHaveText(
    'We could not reach the payment service. Check your connection and try again.',
    { timeout: scaled(10_000) },
  );
  await expect(page.getByRole('button', { name: 'Try again' })).toBeVisible();
  // Before: the page heard nothing, and back online the form stayed, with Pay.
  await expect(page.locator('#event-log')).toContainText('"code":"NETWORK_ERROR"');
  await context.setOffline(false);
  const frame = await challengeFrame(page);
  await expect(page.getByRole('button', { name: 'Try again' })).toBeHidden();
  await frame.getByRole('button', { name: 'Complete authentication' }).click();
  await expect(page.getByText('Payment successful')).toBeVisible();
  expect(await charges(shop, id)).toBe(1);
});
