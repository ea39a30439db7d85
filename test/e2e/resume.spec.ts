import type { Browser, Page } from '@playwright/test';
import {
  CARDS,
  challengeFrame,
  chargesOf,
  expect,
  fillCard,
  fillPerson,
  hookRunsOf,
  openShop,
  pay,
  providerStatus,
  SHAPES,
  shaped,
  test,
} from './fixtures.ts';

// A step still open when the page loads again (the shopper reloaded mid-challenge, or came
// back from the bank's page): the widget shows it again, never a blank form, and reads the
// checkout back meanwhile, so an approval on another device shows within seconds with the
// page in front all along. On both of the README's page shapes: `order`, where the widget
// finds the basket's checkout through the handler, and `checkout-id`.

/** Counts the page's visibilitychange events: an approval elsewhere must show without one. */
async function countVisibilityChanges(page: Page): Promise<void> {
  await page.addInitScript(() => {
    (window as unknown as { seen: number }).seen = 0;
    document.addEventListener('visibilitychange', () => {
      (window as unknown as { seen: number }).seen += 1;
    });
  });
}

const visibilityChanges = (page: Page) =>
  page.evaluate(() => (window as unknown as { seen: number }).seen);

/** The challenge's answer, given on another device: its page opened there, and a button pressed. */
async function approveOnAnotherDevice(browser: Browser, url: string, md: string) {
  const phone = await browser.newContext();
  const page = await phone.newPage();
  await page.goto(`${url}?MD=${encodeURIComponent(md)}`);
  return {
    page,
    /** Presses the button, and resolves once the provider has answered what it posted. */
    press: async () => {
      const answered = page.waitForResponse((r) => r.url().includes('/complete_payment'));
      await page.getByRole('button', { name: 'Complete authentication' }).click();
      await answered;
    },
    close: () => phone.close(),
  };
}

/** What the challenge frame was posted: the issuer's page and the challenge's MD. */
async function challengeOf(page: Page) {
  const frame = await challengeFrame(page);
  const md = await frame.locator('input[name=MD]').inputValue();
  return { url: frame.url().split('?')[0] ?? '', md };
}

for (const shape of SHAPES) {
  test.describe(`a reload during the 3DS challenge in the iframe (${shape})`, () => {
    test('shows the challenge again, which then completes: Payment successful', async ({
      page,
      shop,
    }) => {
      const id = await openShop(page, shop, shaped('/?redirect=0', shape));
      await fillCard(page, CARDS.challenge);
      await pay(page);
      const first = await challengeOf(page);
      await page.reload();
      const again = await challengeOf(page);
      expect(again.md, 'the same challenge, posted again').toBe(first.md);
      await expect(page.getByRole('button', { name: /^Pay / })).toBeHidden();
      await expect(page.locator('#event-log')).toContainText('payment-challenge');
      await expect(page.locator('#event-log')).toContainText('"mode":"iframe"');
      const frame = await challengeFrame(page);
      await frame.getByRole('button', { name: 'Complete authentication' }).click();
      await expect(page.getByText('Payment successful')).toBeVisible();
      expect(await providerStatus(shop, id)).toBe('PAID');
    });

    test('approved on another device: Payment successful within 5 s, with no visibility change', async ({
      page,
      shop,
      browser,
    }) => {
      // The 5 s are the page's own: its clock is stopped while the phone approves, then moved
      // on 5 s, firing every timer due meanwhile and no later one (a loaded machine's slowness
      // cannot pass for the widget's, nor hide a wait longer than 5 s).
      await page.clock.install();
      await countVisibilityChanges(page);
      const id = await openShop(page, shop, shaped('/?redirect=0', shape));
      await fillCard(page, CARDS.challenge);
      await pay(page);
      await challengeOf(page);
      await page.reload();
      const { url, md } = await challengeOf(page);
      const phone = await approveOnAnotherDevice(browser, url, md);
      try {
        // Paused a second ahead of the page's now: a loaded machine may take longer than a
        // millisecond to ask, and a pause cannot go back.
        await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1_000);
        await phone.press();
        await page.clock.runFor(5_000);
        // What those 5 s set off (a read of the checkout) is answered in the machine's time.
        await expect(page.getByText('Payment successful')).toBeVisible();
      } finally {
        await phone.close();
      }
      expect(await visibilityChanges(page)).toBe(0);
      expect(await providerStatus(shop, id)).toBe('PAID');
      await expect(page.locator('payment-widget iframe')).toHaveCount(0);
    });

    test('Cancel, then another card: paid once, even when the abandoned challenge is approved late; a reload after Cancel shows the form', async ({
      page,
      shop,
      browser,
      quiet,
    }) => {
      // The late answer's page, for a person: a 400, the challenge is over.
      quiet.failed(400);
      const id = await openShop(page, shop, shaped('/?redirect=0', shape));
      await fillCard(page, CARDS.challenge);
      await pay(page);
      await challengeOf(page);
      await page.reload();
      const abandoned = await challengeOf(page);
      // The challenge also open in the shopper's other tab, to be answered after all, late.
      const late = await approveOnAnotherDevice(browser, abandoned.url, abandoned.md);
      try {
        await page.getByRole('button', { name: 'Cancel' }).click();
        await expect(page.getByRole('button', { name: /^Pay / })).toBeEnabled();
        await page.reload();
        await expect(page.getByRole('button', { name: /^Pay / })).toBeEnabled();
        await expect(page.locator('payment-widget iframe')).toHaveCount(0);
        await fillCard(page, CARDS.paid);
        await pay(page);
        await expect(page.getByText('Payment successful')).toBeVisible();
        await late.press();
      } finally {
        await late.close();
      }
      expect(await providerStatus(shop, id)).toBe('PAID');
      expect(await chargesOf(shop, id), 'payments charged and not refunded').toBe(1);
      expect(await hookRunsOf(shop, id)).toEqual([{ hook: 'paid', id, status: 'PAID' }]);
    });
  });

  test.describe(`back on the shop during a full-page step (${shape})`, () => {
    test('3DS: the challenge is offered again (never followed by itself), then completes', async ({
      page,
      shop,
    }) => {
      const id = await openShop(page, shop, shaped('/', shape));
      await fillCard(page, CARDS.challenge);
      await pay(page);
      await expect(page.getByRole('button', { name: 'Complete authentication' })).toBeVisible();
      await page.goBack();
      const go = page.getByRole('button', { name: 'Confirm the payment with your bank' });
      await expect(go).toBeVisible();
      await expect(page.getByRole('button', { name: 'Try another card' })).toBeVisible();
      await page.reload();
      await expect(go).toBeVisible();
      expect(new URL(page.url()).origin, 'still on the shop').toBe(new URL(shop.url).origin);
      await go.click();
      await page.getByRole('button', { name: 'Complete authentication' }).click();
      await expect(page).toHaveURL(new RegExp(`/result\\?checkout_id=${id}$`));
      await expect(page.getByText('Payment successful')).toBeVisible();
      expect(await providerStatus(shop, id)).toBe('PAID');
    });

    test('iDEAL: the bank page is offered again; "Try another way to pay" pays with a card instead', async ({
      page,
      shop,
    }) => {
      const id = await openShop(page, shop, shaped('/', shape));
      await page.getByRole('radio', { name: 'iDEAL' }).check();
      await fillPerson(page);
      await pay(page);
      await expect(page.getByRole('button', { name: 'Approve payment' })).toBeVisible();
      const bankPage = page.url();
      await page.goBack();
      await expect(
        page.getByRole('button', { name: 'Confirm the payment with your bank' }),
      ).toBeVisible();
      await page.getByRole('button', { name: 'Try another way to pay' }).click();
      await page.getByRole('radio', { name: 'Card' }).check();
      await fillCard(page, CARDS.paid);
      await pay(page);
      await expect(page.getByText('Payment successful')).toBeVisible();
      expect(await providerStatus(shop, id)).toBe('PAID');
      // The bank's page, opened again by a person: it says the step is over, and links back;
      // a 200 (the fixture fails on a 400 and above, which it was).
      const reopened = await page.goto(bankPage);
      expect(reopened?.status()).toBe(200);
      await expect(
        page.getByRole('heading', { name: 'This bank payment is no longer open' }),
      ).toBeVisible();
      await expect(page.getByText('This payment has already been completed.')).toBeVisible();
      await page.getByRole('link', { name: 'Back to the shop' }).click();
      await expect(page.getByText('Payment successful')).toBeVisible();
    });
  });
}

test('a late answer to a challenge another card replaced: a page for a person, not JSON', async ({
  page,
  shop,
  browser,
  quiet,
}) => {
  // The late answer's page, for a person: a 400, the challenge is over.
  quiet.failed(400);
  const id = await openShop(page, shop, '/?redirect=0');
  await fillCard(page, CARDS.challenge);
  await pay(page);
  const { url, md } = await challengeOf(page);
  // Left open on another device; meanwhile another card pays here.
  const phone = await approveOnAnotherDevice(browser, url, md);
  try {
    await page.getByRole('button', { name: 'Cancel' }).click();
    await fillCard(page, CARDS.paid);
    await pay(page);
    await expect(page.getByText('Payment successful')).toBeVisible();
    await phone.press();
    await expect(
      phone.page.getByRole('heading', { name: 'This authentication is no longer open' }),
    ).toBeVisible();
    await expect(phone.page.getByText('This payment has already been completed.')).toBeVisible();
    await expect(phone.page.getByText('error_code')).toHaveCount(0);
  } finally {
    await phone.close();
  }
  expect(await providerStatus(shop, id)).toBe('PAID');
});
