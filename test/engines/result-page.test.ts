/**
 * The result page a full-page flow comes back to, after a failure: "Try another card" (or
 * another way to pay) pays the basket's next checkout there, and a reload of that page then
 * shows the payment made, not the failure it came back with.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { providerStatus, type Shop, startShop } from '../e2e/shop.ts';
import { scaled } from '../shared/until.ts';
import { type Driver, TEXT, waitFor } from './driver.ts';
import { launch } from './launch.ts';
import {
  anotherCardPays,
  CARDS,
  fillCard,
  fillPerson,
  notSeeText,
  openShop,
  PAY,
  seeText,
} from './shopper.ts';

const FLOW = { timeout: scaled(60_000) };

describe('a result page after a failure', () => {
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

  /**
   * On the result page for the failed checkout `id`, `retry` pressed: a card pays the basket's
   * next checkout there; the page is then reloaded.
   */
  async function paidThereThenReload(id: string, why: string, retry: string): Promise<void> {
    const onResult = (checkout: string) => async () =>
      new RegExp(`/result\\?checkout_id=${checkout}$`).test(await driver.url());
    await waitFor('the result page', onResult(id));
    await seeText(driver, why);
    const paid = await anotherCardPays(driver, retry);
    assert.notEqual(paid, id, 'the basket’s next checkout paid');
    assert.equal(await providerStatus(shop, paid), 'PAID');

    // The reload: the page's address names the checkout that paid, and shows it paid.
    await driver.goto(await driver.url());
    await waitFor('an outcome', async () =>
      /Payment (successful|failed)/.test(await driver.run(TEXT)),
    );
    await notSeeText(driver, 'Payment failed');
    await seeText(driver, 'Payment successful');
    assert.ok(await onResult(paid)(), `the page's address names ${paid}: ${await driver.url()}`);
    assert.equal(await providerStatus(shop, id), 'FAILED');
  }

  it(
    '3DS failed on the bank’s page, another card paid on the result page: a reload shows it paid',
    FLOW,
    async () => {
      const id = await openShop(driver, shop, '/');
      await fillCard(driver, CARDS.challenge);
      await driver.click(PAY);
      await driver.click('Fail authentication');
      await paidThereThenReload(id, 'Authentication failed', 'Try another card');
    },
  );

  it(
    'iDEAL declined at the bank, a card paid on the result page: a reload shows it paid',
    FLOW,
    async () => {
      const id = await openShop(driver, shop, '/');
      await driver.click('iDEAL');
      await fillPerson(driver);
      await driver.click(PAY);
      await driver.click('Decline payment');
      await paidThereThenReload(id, 'Payment failed', 'Try another way to pay');
    },
  );
});
