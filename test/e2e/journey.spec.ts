import type { Frame, Page } from '@playwright/test';
import {
  basketCheckouts,
  CARDS,
  challengeFrame,
  expect,
  fillCard,
  hookRunsOf,
  openShop,
  pay,
  providerStatus,
  SHAPES,
  type Shop,
  shaped,
  test,
} from './fixtures.ts';

// The shopper's journey beyond the happy path, on a phone: another card after a decline,
// the truth after a reload or the bank's app, and one checkout per basket. Each test is a
// shopper of their own (a browser context, so a basket cookie of their own). What reloads or
// opens a second tab runs on both of the README's page shapes (`order`, `checkout-id`).
test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

async function referenceOf(shop: Shop, id: string): Promise<string> {
  const res = await shop.provider('GET', `/v0.1/checkouts/${id}`);
  return String(((await res.json()) as { checkout_reference: string }).checkout_reference);
}

/** What a bank's app does with a 3DS challenge the shopper left open: approves it. */
async function challengeHandle(frame: Frame): Promise<{ termUrl: string; md: string }> {
  const form = frame.locator('form');
  const termUrl = (await form.getAttribute('action')) ?? '';
  const md = (await frame.locator('input[name=MD]').inputValue()) ?? '';
  return { termUrl, md };
}

async function approveElsewhere(page: Page, { termUrl, md }: { termUrl: string; md: string }) {
  return page.request.post(termUrl, { form: { MD: md, PaRes: 'Y' }, maxRedirects: 0 });
}

test.describe('another card after a failure', () => {
  test('a declined card, then another: paid once, same order, no reload', async ({
    page,
    shop,
  }) => {
    const first = await openShop(page, shop, '/?redirect=0');
    const order = await referenceOf(shop, first);
    let loads = 0;
    page.on('load', () => {
      loads += 1;
    });
    await fillCard(page, CARDS.threeDsError);
    await pay(page);
    await expect(page.getByText('Payment failed')).toBeVisible();
    // A 3DS technical error: the bank was never asked, so it is not "declined".
    await expect(page.getByText('Your bank could not be reached')).toBeVisible();
    await expect(page.getByText('Your card was declined')).toHaveCount(0);
    await page.getByRole('button', { name: 'Try another card' }).tap();
    // The basket's next checkout: the name is kept, the card is not.
    await expect(page.getByLabel('Name on card')).toHaveValue('Ada Lovelace');
    await expect(page.getByLabel('Card number')).toHaveValue('');
    await fillCard(page, CARDS.paid);
    await pay(page);
    await expect(page.getByText('Payment successful')).toBeVisible();
    expect(loads, 'no reload').toBe(0);
    const checkouts = await basketCheckouts(shop, order);
    expect(checkouts.map((c) => c.status)).toEqual(['FAILED', 'PAID']);
    // Each checkout's hooks, once every webhook about it is answered: onFailed, then onPaid.
    const runs: Shop['hooks'] = [];
    for (const { id } of checkouts) runs.push(...(await hookRunsOf(shop, id)));
    expect(runs.map((h) => `${h.hook} ${h.id}`)).toEqual([
      `failed ${first}`,
      `paid ${checkouts[1]?.id}`,
    ]);
  });

  test('the sandbox’s outcome control declines the next payment only: the same card pays after', async ({
    page,
    shop,
  }) => {
    const first = await openShop(page, shop, '/?redirect=0');
    const order = await referenceOf(shop, first);
    // As docs/sandbox.md shows it: the next payment with this card is declined.
    const set = await shop.provider('POST', '/sandbox/outcomes', {
      outcome: 'declined',
      card: CARDS.paid.slice(-4),
    });
    expect(set.status).toBe(201);
    await fillCard(page, CARDS.paid);
    await pay(page);
    await expect(page.getByText('Payment failed')).toBeVisible();
    await expect(page.getByText('Your card was declined')).toBeVisible();
    await page.getByRole('button', { name: 'Try another card' }).tap();
    await fillCard(page, CARDS.paid);
    await pay(page);
    await expect(page.getByText('Payment successful')).toBeVisible();
    const checkouts = await basketCheckouts(shop, order);
    expect(checkouts.map((c) => c.status)).toEqual(['FAILED', 'PAID']);
    expect(await (await shop.provider('GET', '/sandbox/outcomes')).json()).toEqual([]);
  });

  test('a failed 3DS challenge, then another card: "Authentication failed", then paid', async ({
    page,
    shop,
  }) => {
    const first = await openShop(page, shop, '/?redirect=0');
    await fillCard(page, CARDS.challenge);
    await pay(page);
    const frame = await challengeFrame(page);
    await frame.getByRole('button', { name: 'Fail authentication' }).tap();
    await expect(page.getByText('Authentication failed')).toBeVisible();
    await page.getByRole('button', { name: 'Try another card' }).tap();
    await fillCard(page, CARDS.paid);
    await pay(page);
    await expect(page.getByText('Payment successful')).toBeVisible();
    const statuses = (await basketCheckouts(shop, await referenceOf(shop, first))).map(
      (c) => c.status,
    );
    expect(statuses).toEqual(['FAILED', 'PAID']);
  });
});

for (const shape of SHAPES) {
  test.describe(`the truth after a reload or the bank’s app (${shape})`, () => {
    test('reload during 3DS while the bank approves it in another tab: paid, no form', async ({
      page,
      shop,
    }) => {
      const id = await openShop(page, shop, shaped('/?redirect=0', shape));
      await fillCard(page, CARDS.challenge);
      await pay(page);
      const handle = await challengeHandle(await challengeFrame(page));
      // The bank's app approves it; meanwhile the phone discarded the tab.
      const approved = await approveElsewhere(page, handle);
      expect(approved.status()).toBeLessThan(400);
      await page.reload();
      await expect(page.getByText('Order confirmed')).toBeVisible();
      await expect(page.getByText('Payment successful')).toBeVisible();
      await expect(page.getByLabel('Card number')).toHaveCount(0);
      await expect(page.getByRole('button', { name: /^Pay / })).toHaveCount(0);
      expect(await providerStatus(shop, id)).toBe('PAID');
    });

    test('a reload after success shows the order’s confirmation, never a new payment', async ({
      page,
      shop,
    }) => {
      const id = await openShop(page, shop, shaped('/?redirect=0', shape));
      await fillCard(page, CARDS.paid);
      await pay(page);
      await expect(page.getByText('Payment successful')).toBeVisible();
      await page.reload();
      await expect(page.getByText('Order confirmed')).toBeVisible();
      await expect(page.locator('#event-log')).toContainText('"resumed":true');
      await expect(page.getByRole('button', { name: /^Pay / })).toHaveCount(0);
      // The same checkout, paid: the page's order, not a new payment.
      await expect(page.locator('#event-log')).toContainText(`"id":"${id}"`);
    });

    test('reload during an unfinished challenge: the basket is paid once, a late approval is refused', async ({
      page,
      shop,
    }) => {
      const id = await openShop(page, shop, shaped('/?redirect=0', shape));
      const order = await referenceOf(shop, id);
      await fillCard(page, CARDS.challenge);
      await pay(page);
      const abandoned = await challengeHandle(await challengeFrame(page));
      await page.reload();
      // The same checkout, its challenge shown again: the shopper leaves it for another card.
      await challengeFrame(page);
      await page.getByRole('button', { name: 'Cancel' }).click();
      expect(await openShop(page, shop, shaped('/?redirect=0', shape))).toBe(id);
      await fillCard(page, CARDS.paid);
      await pay(page);
      await expect(page.getByText('Payment successful')).toBeVisible();
      // The bank's app approves the abandoned challenge, late.
      const late = await approveElsewhere(page, abandoned);
      expect(late.status()).toBeGreaterThanOrEqual(400);
      const checkouts = await basketCheckouts(shop, order);
      expect(checkouts).toHaveLength(1);
      const successful = checkouts[0]?.transactions.filter((t) => t.status === 'SUCCESSFUL');
      expect(successful).toHaveLength(1);
    });
  });

  test.describe(`one checkout per basket (${shape})`, () => {
    test('two tabs on one basket: paying in one flips the other to paid when it is seen', async ({
      context,
      shop,
    }) => {
      const [a, b] = [await context.newPage(), await context.newPage()];
      const idA = await openShop(a, shop, shaped('/?redirect=0', shape));
      const idB = await openShop(b, shop, shaped('/?redirect=0', shape));
      expect(idB, 'the basket has one checkout').toBe(idA);
      await fillCard(b, CARDS.paid);
      await pay(b);
      await expect(b.getByText('Payment successful')).toBeVisible();
      // Tab A comes to the front.
      await a.bringToFront();
      await a.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
      await expect(a.getByText('Payment successful')).toBeVisible();
      await expect(a.getByRole('button', { name: /^Pay / })).toHaveCount(0);
    });

    test('a changed basket deactivates the old checkout: the old tab cannot pay it', async ({
      context,
      shop,
      quiet,
    }) => {
      // The process route's 409 for the old tab's checkout.
      quiet.failed(409);
      const old = await context.newPage();
      const oldId = await openShop(old, shop, shaped('/?redirect=0', shape));
      const now = await context.newPage();
      // The shopper adds to the basket in another tab: a new amount, a new checkout.
      const newId = await openShop(now, shop, shaped('/?redirect=0&amount=12.50', shape));
      expect(newId).not.toBe(oldId);
      expect(await providerStatus(shop, oldId)).toBe('EXPIRED');
      await old.bringToFront();
      await fillCard(old, CARDS.paid);
      await pay(old);
      await expect(old.getByText('This payment is no longer valid')).toBeVisible();
      expect(await providerStatus(shop, oldId)).toBe('EXPIRED');
      await expect(now.getByRole('button', { name: 'Pay €12.50' })).toBeEnabled();
    });
  });
}

test.describe('methods and challenge mode agree with the checkout', () => {
  test('a checkout without a redirect_url offers the card only, whatever the merchant accepts', async ({
    page,
    shop,
  }) => {
    // The page as a shop would write it that does not name its methods: the widget asks.
    await page.route(new URL('/?redirect=0', shop.url).href, async (route) => {
      const response = await route.fetch();
      const body = (await response.text()).replace(/payment-methods="[^"]*"/, '');
      await route.fulfill({ response, body });
    });
    await openShop(page, shop, '/?redirect=0');
    const offered = await (
      await page.request.get(
        new URL('/payments/payment-methods?amount=10&currency=EUR', shop.url).href,
      )
    ).json();
    expect(JSON.stringify(offered)).toContain('ideal');
    await expect(page.getByRole('radio')).toHaveCount(0);
    await expect(page.getByLabel('Card number')).toBeVisible();
  });

  test('challenge="iframe" on a checkout with a redirect_url ends in the widget, never the shop inside it', async ({
    page,
    shop,
  }) => {
    const framed: string[] = [];
    page.on('framenavigated', (frame) => {
      if (frame !== page.mainFrame()) framed.push(frame.url());
    });
    const id = await openShop(page, shop, '/');
    // The merchant's choice, on a checkout made for full-page flows (it has a redirect_url).
    await page.locator('payment-widget').evaluate((el) => el.setAttribute('challenge', 'iframe'));
    await fillCard(page, CARDS.challenge);
    await pay(page);
    const frame = await challengeFrame(page);
    await frame.getByRole('button', { name: 'Complete authentication' }).tap();
    await expect(page.getByText('Payment successful')).toBeVisible();
    expect(await providerStatus(shop, id)).toBe('PAID');
    expect(framed.filter((url) => url.includes('/result'))).toEqual([]);
    expect(page.url()).toBe(new URL('/', shop.url).href);
  });
});
