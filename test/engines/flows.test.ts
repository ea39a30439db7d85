/**
 * The shopper's payment flows through the demo shop, written once and run in
 * the engine ENGINE names (`npm test` runs Chromium, Firefox and WebKit in turn).
 * Each flow checks what the shopper sees and what the shop's server saw.
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import { providerStatus, SHAPES, type Shop, shaped, startShop } from '../e2e/shop.ts';
import { scaled } from '../shared/until.ts';
import { type Driver, EXISTS, nameArg, waitFor } from './driver.ts';
import { launch } from './launch.ts';
import {
  axeViolations,
  CARDS,
  challengeMd,
  declinedThenAnotherCard,
  fillBoleto,
  fillCard,
  fillPerson,
  focused,
  notSeeText,
  openShop,
  PAY,
  pageLoads,
  seeText,
  shopSaw,
  slowNext,
  tabTo,
} from './shopper.ts';

/** A flow's whole allowance on an idle machine, scaled to this one. */
const FLOW = { timeout: scaled(60_000) };

/** The provider takes `ms` over the next payment. */
const slowNextPayment = (shop: Shop, ms: number) => slowNext(shop, 'PUT', '/v0.1/checkouts/*', ms);

/** Until the payment slowed by slowNextPayment is with the provider: its fault taken. */
async function atProvider(shop: Shop): Promise<void> {
  await waitFor('the payment at the provider', async () => {
    const faults = await shop.provider('GET', '/sandbox/faults');
    return ((await faults.json()) as unknown[]).length === 0;
  });
}

describe('payment flows', () => {
  let shop: Shop;
  let driver: Driver;

  before(async () => {
    shop = await startShop();
    driver = await launch();
  });

  after(async () => {
    await driver?.close();
    await shop?.close();
  });

  // A correct page says nothing in the console, in any engine (driver.ts `said()`): each
  // flow ends with what its pages said, and fails on anything it did not expect.
  let expected: RegExp[] = [];
  beforeEach(async () => {
    expected = [];
    await driver.said();
  });
  afterEach(async () => {
    const said = await driver.said();
    assert.deepEqual(
      said.filter((line) => !expected.some((pattern) => pattern.test(line))),
      [],
      `${driver.engine}: errors and warnings in the console`,
    );
  });

  /**
   * Paid, on the result page; then Back to the provider's page under `path` (the 3DS
   * challenge, the bank's), which says it is over (`over`) and not "paid" again, whether the
   * engine loads it again (a 200, as a bank's "session ended" page: no error in the console)
   * or (WebKit) shows the copy it kept, buttons and all: then pressing `button` must be
   * answered so too (a 400: that answer is refused).
   */
  async function paidThenBackTo(id: string, path: string, button: string, over: string) {
    await waitFor('the result page', async () =>
      new RegExp(`/result\\?checkout_id=${id}$`).test(await driver.url()),
    );
    await seeText(driver, 'Payment successful');
    assert.equal(await providerStatus(shop, id), 'PAID');
    await shopSaw(shop, id, 'paid');
    const loads = (await pageLoads(shop, path)).length;
    await driver.history('back');
    await waitFor(`the page under ${path}`, async () =>
      (await driver.run<string>('return location.pathname;')).startsWith(path),
    );
    if (await driver.run<boolean>(EXISTS, 'control', nameArg(button))) {
      expected = [/status of 400/];
      await driver.click(button);
    } else {
      // Loaded again: Chromium said "Failed to load resource: ... status of 400" for it.
      assert.deepEqual((await pageLoads(shop, path)).slice(loads), [200]);
    }
    await seeText(driver, over);
    await notSeeText(driver, 'Payment successful');
    assert.equal(await providerStatus(shop, id), 'PAID');
  }

  it('a card without 3DS: Payment successful, onPaid once', FLOW, async () => {
    const id = await openShop(driver, shop, '/?redirect=0');
    await fillCard(driver, CARDS.paid);
    await driver.click(PAY);
    await seeText(driver, 'Payment successful');
    assert.equal(await providerStatus(shop, id), 'PAID');
    await shopSaw(shop, id, 'paid');
  });

  it('amount 11.00 is declined: Payment failed, onFailed once', FLOW, async () => {
    const id = await openShop(driver, shop, '/?amount=11.00&redirect=0');
    await fillCard(driver, CARDS.paid);
    await driver.click('Pay €11.00');
    await seeText(driver, 'Payment failed');
    await notSeeText(driver, 'Payment successful');
    assert.equal(await providerStatus(shop, id), 'FAILED');
    await shopSaw(shop, id, 'failed');
  });

  it(
    'a declined card, then another card: paid once on the basket’s next checkout',
    FLOW,
    async () => {
      const first = await openShop(driver, shop, '/?redirect=0');
      // The card's bank declines the next payment (the sandbox's outcome control).
      const declined = await shop.provider('POST', '/sandbox/outcomes', { outcome: 'declined' });
      assert.equal(declined.status, 201);
      const second = await declinedThenAnotherCard(driver);
      assert.equal(await providerStatus(shop, first), 'FAILED');
      assert.notEqual(second, first);
      assert.equal(await providerStatus(shop, second), 'PAID');
      await shopSaw(shop, second, 'paid');
    },
  );

  for (const [button, shown, hook, onHook] of [
    ['Complete authentication', 'Payment successful', 'paid', 'onPaid'],
    ['Fail authentication', 'Payment failed', 'failed', 'onFailed'],
  ] as const) {
    it(`3DS in the iframe, ${button}: ${shown}, ${onHook} once`, FLOW, async () => {
      const id = await openShop(driver, shop, '/?redirect=0');
      await fillCard(driver, CARDS.challenge);
      await driver.click(PAY);
      await driver.inFrame(() => driver.click(button));
      await seeText(driver, shown);
      assert.equal(await providerStatus(shop, id), hook === 'paid' ? 'PAID' : 'FAILED');
      await shopSaw(shop, id, hook);
    });
  }

  it(
    '3DS as a full-page redirect: back on the result page, Payment successful; Back to the challenge is over',
    FLOW,
    async () => {
      const id = await openShop(driver, shop, '/');
      await fillCard(driver, CARDS.challenge);
      await driver.click(PAY);
      await driver.click('Complete authentication');
      // Back: the challenge page the widget posted to answered with its GET (303), so the
      // browser loads it again, not "Confirm Form Resubmission".
      await paidThenBackTo(
        id,
        '/sandbox/3ds/',
        'Fail authentication',
        'This authentication is no longer open',
      );
    },
  );

  it(
    'iDEAL: approved at the bank, back on the result page, Payment successful; Back to the bank’s page is over',
    FLOW,
    async () => {
      const id = await openShop(driver, shop, '/');
      await driver.click('iDEAL');
      await fillPerson(driver);
      await driver.click(PAY);
      await driver.click('Approve payment');
      await paidThenBackTo(
        id,
        '/sandbox/bank/',
        'Decline payment',
        'This bank payment is no longer open',
      );
    },
  );

  it(
    'boleto: the voucher, Payment pending, and onPaid once the bank settles it',
    FLOW,
    async () => {
      const id = await openShop(driver, shop, '/?currency=BRL');
      await driver.click('Boleto');
      await fillBoleto(driver);
      await driver.click(PAY);
      await seeText(driver, 'Pay this boleto at a bank or online');
      await seeText(driver, 'Payment pending');
      assert.equal(await providerStatus(shop, id), 'PENDING');
      assert.deepEqual(
        shop.hooks.filter((h) => h.id === id),
        [],
      );
      // The shopper pays at a bank; the sandbox's control route plays the bank.
      const settled = await shop.provider('POST', `/sandbox/checkouts/${id}/settle`, {});
      assert.equal(settled.status, 200);
      await shopSaw(shop, id, 'paid');
    },
  );

  it(
    'keyboard only: Tab, typing and Enter pay a card, 3DS completed in the iframe',
    FLOW,
    async () => {
      const id = await openShop(driver, shop, '/?redirect=0');
      await tabTo(driver, 'Card number');
      await driver.type(CARDS.challenge);
      await driver.press('Tab');
      assert.equal(await focused(driver), 'Expiry date');
      await driver.type('1234');
      await driver.press('Tab');
      await driver.type('123');
      await driver.press('Tab');
      assert.equal(await focused(driver), 'Name on card');
      await driver.type('Ada Lovelace');
      await driver.press('Enter');

      await driver.inFrame(async () => {
        await waitFor('the challenge page', () =>
          driver.run<boolean>(EXISTS, 'control', nameArg('Complete authentication')),
        );
        await tabTo(driver, 'Complete authentication');
        await driver.press('Enter');
      });
      await seeText(driver, 'Payment successful');
      assert.equal(await providerStatus(shop, id), 'PAID');
      await shopSaw(shop, id, 'paid');
    },
  );

  it(
    'keyboard only, a reload during 3DS in the iframe: Tab into the challenge shown again, Enter, and focus lands on the outcome',
    FLOW,
    async () => {
      const id = await openShop(driver, shop, '/?redirect=0');
      await fillCard(driver, CARDS.challenge);
      await driver.click(PAY);
      await challengeMd(driver);
      await driver.goto(await driver.url());
      await challengeMd(driver);
      // Focus was on nothing as the page loaded: Tab goes on until it is in the frame.
      await driver.inFrame(async () => {
        await tabTo(driver, 'Complete authentication');
        await driver.press('Enter');
      });
      await seeText(driver, 'Payment successful');
      // It was left on the page with the frame gone: Tab started from the top again.
      await waitFor('focus on the outcome', async () =>
        /^Payment successful/.test(await focused(driver)),
      );
      await shopSaw(shop, id, 'paid');
    },
  );

  it(
    'keyboard only, a slow answer: focus stays on "Processing…" until the outcome takes it',
    FLOW,
    async () => {
      const id = await openShop(driver, shop, '/?redirect=0');
      await fillCard(driver, CARDS.paid);
      await slowNextPayment(shop, 4000);
      await tabTo(driver, 'Pay €10.00');
      await driver.press('Enter');
      await seeText(driver, 'Processing…');
      // Every engine drops focus from a control disabled under it by its next frame, to the
      // page: a screen reader said nothing, and Tab started from the top of the page.
      await driver.run(
        'await new Promise((f) => requestAnimationFrame(() => requestAnimationFrame(f)));',
      );
      assert.equal(await focused(driver), 'Processing…');
      await seeText(driver, 'Payment successful');
      assert.match(await focused(driver), /^Payment successful/);
      await shopSaw(shop, id, 'paid');
    },
  );

  it(
    'Back during "Processing…", then Forward: the payment’s outcome, never its form to pay again',
    FLOW,
    async () => {
      // A page before the shop's, for Back to land on.
      await driver.goto(new URL('/demo/favicon.svg', shop.url).href);
      const id = await openShop(driver, shop, '/?redirect=0');
      await fillCard(driver, CARDS.paid);
      await slowNextPayment(shop, 3000);
      await driver.click(PAY);
      await seeText(driver, 'Processing…');
      // "Processing…" shows as the request leaves; Back before it reaches the handler cuts it
      // off in the browser, and the form is then the right answer (Firefox did, on a busy run).
      await atProvider(shop);
      // Firefox keeps no page with a request out in its back-forward cache, so Forward loads it
      // again while the provider still works on the payment; WebKit keeps it, and cuts the
      // request off. Each showed a form (WebKit's with "We could not reach the payment service").
      // (The page's own location: Firefox's driver does not follow history for url().)
      const at = (path: string) =>
        waitFor(
          `the ${path} page`,
          async () => (await driver.run('return location.pathname;')) === path,
        );
      await driver.history('back');
      await at('/demo/favicon.svg');
      await driver.history('forward');
      await at('/');
      await seeText(driver, 'Payment successful');
      assert.equal(await driver.run<boolean>(EXISTS, 'control', nameArg(PAY)), false);
      assert.equal(await providerStatus(shop, id), 'PAID');
      await shopSaw(shop, id, 'paid');
    },
  );

  // The flows that resume a payment, on both of the README's page shapes (shop.ts SHAPES).
  for (const shape of SHAPES) {
    it(
      `a reload during 3DS in the iframe (${shape}): the challenge again, approved on another device, Payment successful`,
      FLOW,
      async () => {
        const id = await openShop(driver, shop, shaped('/?redirect=0', shape));
        await fillCard(driver, CARDS.challenge);
        await driver.click(PAY);
        const md = await challengeMd(driver);
        // The same page again, as a reload: the same basket, its challenge shown again.
        await driver.goto(await driver.url());
        assert.equal(await challengeMd(driver), md);
        // The bank's app on the phone answers it; this page stays in front all along.
        const term = `${shop.sandbox.url}/v0.1/checkouts/${id}/complete_payment`;
        const approved = await fetch(term, {
          method: 'POST',
          body: new URLSearchParams({ MD: md, PaRes: 'Y' }),
          redirect: 'manual',
        });
        assert.equal(approved.status, 200);
        const at = Date.now();
        await seeText(driver, 'Payment successful');
        console.log(`${driver.engine}: approved elsewhere, shown ${Date.now() - at} ms later`);
        assert.equal(await providerStatus(shop, id), 'PAID');
        await shopSaw(shop, id, 'paid');
      },
    );

    it(
      `back on the shop during a full-page 3DS (${shape}): offered again, by keyboard, then Payment successful`,
      FLOW,
      async () => {
        const page = shaped('/', shape);
        const id = await openShop(driver, shop, page);
        await fillCard(driver, CARDS.challenge);
        await driver.click(PAY);
        await waitFor('the challenge page', () =>
          driver.run<boolean>(EXISTS, 'control', nameArg('Complete authentication')),
        );
        await driver.goto(new URL(page, shop.url).href);
        const offered = 'Confirm the payment with your bank';
        await waitFor('the challenge offered again', () =>
          driver.run<boolean>(EXISTS, 'control', nameArg(offered)),
        );
        const back = new URL(await driver.url());
        assert.equal(back.pathname + back.search, page, 'not sent away by itself');
        await tabTo(driver, offered);
        await driver.press('Enter');
        await driver.click('Complete authentication');
        await waitFor('the result page', async () =>
          new RegExp(`/result\\?checkout_id=${id}$`).test(await driver.url()),
        );
        await seeText(driver, 'Payment successful');
        assert.equal(await providerStatus(shop, id), 'PAID');
      },
    );
  }

  it('axe finds nothing in the form, nor once it shows errors', FLOW, async () => {
    await openShop(driver, shop, '/');
    assert.deepEqual(await axeViolations(driver), []);
    await driver.click(PAY);
    await seeText(driver, 'Check the highlighted fields');
    assert.deepEqual(await axeViolations(driver), []);
  });
});
