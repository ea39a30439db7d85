/**
 * Back after a 3-D Secure challenge in the widget's iframe, in the engine ENGINE names: one
 * Back leaves the checkout page, whether the challenge passed, failed, was cancelled or is
 * still showing. The frame's navigations (the widget's POST into it, the challenge page's
 * answer, the page it ends on) leave no entry in the shopper's history once the frame is
 * gone: Chromium and WebKit kept the challenge page's answer as one, and the first Back
 * after the outcome went to a frame that no longer existed, which showed nothing.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Shop, startShop } from '../e2e/shop.ts';
import { scaled } from '../shared/until.ts';
import { type Driver, EXISTS, nameArg, waitFor } from './driver.ts';
import { launch } from './launch.ts';
import { type OtherSite, startOtherSite } from './other-site.ts';
import { CARDS, challengeMd, fillCard, openShop, PAY, seeText } from './shopper.ts';

const FLOW = { timeout: scaled(60_000) };

/** The page before the shop's (another site's), where one Back from the shop's page lands. */
const BEFORE = '/before';

/**
 * The two ends of a challenge in the frame: the sandbox's end page (a checkout without a
 * redirect_url), and the handler's return page (one with a redirect_url, its challenge shown
 * in the iframe by `challenge="iframe"`).
 */
const ENDS = [
  { end: "the provider's end page", page: '/?redirect=0', iframe: false },
  { end: "the handler's return page", page: '/', iframe: true },
] as const;

describe('Back after a 3DS challenge in the iframe', () => {
  let shop: Shop;
  let driver: Driver;
  let other: OtherSite;

  before(async () => {
    shop = await startShop();
    // A page the back-forward cache keeps, as most are: Back restores it, and the next test
    // loads another page from it.
    other = await startOtherSite((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html' }).end('<p>Another page</p>');
    });
    driver = await launch();
  });

  after(async () => {
    await driver?.close();
    other?.close();
    await shop?.close();
  });

  let visits = 0;
  const historyLength = () => driver.run<number>('return history.length;');

  /** Opens the shop after another page, pays with the challenge card; the history's length before Pay. */
  async function challenged(page: string, iframe: boolean): Promise<number> {
    // A URL of its own each time: the same URL again is no navigation to wait for (Firefox).
    visits += 1;
    await driver.goto(`${other.url}${BEFORE}?${visits}`);
    await openShop(driver, shop, page);
    if (iframe) {
      await driver.run(
        "document.querySelector('payment-widget').setAttribute('challenge', 'iframe'); return 1;",
      );
    }
    const length = await historyLength();
    await fillCard(driver, CARDS.challenge);
    await driver.click(PAY);
    await challengeMd(driver);
    assert.equal(await historyLength(), length, `${driver.engine}: the challenge shown`);
    return length;
  }

  /** One Back leaves the shop's page for the one before it. */
  async function oneBackLeaves(): Promise<void> {
    await driver.history('back');
    await waitFor(`the page before the shop's (${BEFORE})`, async () =>
      (await driver.run<string>('return location.pathname;')).startsWith(BEFORE),
    );
  }

  for (const { end, page, iframe } of ENDS) {
    for (const [button, shown] of [
      ['Complete authentication', 'Payment successful'],
      ['Fail authentication', 'Payment failed'],
    ] as const) {
      it(`${button}, ending on ${end}: ${shown}, and one Back leaves`, FLOW, async () => {
        const length = await challenged(page, iframe);
        await driver.inFrame(() => driver.click(button));
        await seeText(driver, shown);
        assert.equal(await historyLength(), length, `${driver.engine}: history.length`);
        await oneBackLeaves();
      });
    }
  }

  it('Cancel: the form again, and one Back leaves', FLOW, async () => {
    const length = await challenged('/?redirect=0', false);
    await driver.click('Cancel');
    await waitFor('the form again', () => driver.run<boolean>(EXISTS, 'control', nameArg(PAY)));
    assert.equal(await historyLength(), length, `${driver.engine}: history.length`);
    await oneBackLeaves();
  });

  it('Back while the challenge shows leaves; Forward shows the challenge again', FLOW, async () => {
    await challenged('/?redirect=0', false);
    const md = await challengeMd(driver);
    await oneBackLeaves();
    await driver.history('forward');
    assert.equal(await challengeMd(driver), md);
  });
});
