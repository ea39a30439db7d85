/**
 * The static site after its first visit, with its server stopped: every file a payment needs
 * comes from what the worker cached when it installed (the 3DS step, the bank method's, a
 * language the first visit never loaded), not from the browser's HTTP cache, which a server
 * answering `Cache-Control: no-cache` (as the suite's does here) leaves nothing to give.
 */
import assert from 'node:assert/strict';
import { EXPIRY } from '../e2e/shop.ts';
import { type Driver, EXISTS, nameArg, waitFor } from '../engines/driver.ts';
import { CARDS, fillBoleto, fillCard, fillPerson, PAY, seeText } from '../engines/shopper.ts';
import type { StaticServer } from './static-server.ts';
import {
  bannerStyled,
  buyAgain,
  checkoutOn,
  onResultPage,
  openShop,
  provider,
  type Seen,
  statusOf,
} from './visitor.ts';

/** The widget's Pay button in German ("10,00 € bezahlen"). */
const ZAHLEN = /bezahlen$/;

/** The server stopped: nothing of the site can be fetched any more. */
async function stop(site: StaticServer): Promise<void> {
  await site.close();
  await assert.rejects(fetch(site.url), 'the static server still answers');
}

/** In German, 3DS as a full page (the languages part, its German strings, the step part). */
async function germanFullPage3ds(driver: Driver, site: StaticServer, seen: Seen[]) {
  const id = await openShop(driver, site, './?locale=de-DE', ZAHLEN);
  await driver.fill('Kartennummer', CARDS.challenge);
  await driver.fill('Ablaufdatum', EXPIRY);
  await driver.fill('Sicherheitscode', '123');
  await driver.fill('Name auf der Karte', 'Ada Lovelace');
  await driver.click(ZAHLEN);
  await driver.click('Complete authentication');
  await onResultPage(driver, site, id);
  seen.push([id, 'PAID']);
}

/** 3DS inside the widget's frame. */
async function framed3ds(driver: Driver, site: StaticServer, seen: Seen[]) {
  await driver.goto(new URL('./?redirect=0', site.url).href);
  const id = await buyAgain(driver);
  await fillCard(driver, CARDS.challenge);
  await driver.click(PAY);
  await driver.inFrame(() => driver.click('Complete authentication'));
  await seeText(driver, 'Payment successful');
  assert.equal(await statusOf(driver, id), 'PAID');
  seen.push([id, 'PAID']);
}

/**
 * iDEAL approved at the simulated bank, back on the result page; at 11.00, an amount that
 * declines every card and no bank method.
 */
async function ideal(driver: Driver, site: StaticServer, seen: Seen[]): Promise<void> {
  await driver.goto(new URL('./?amount=11.00', site.url).href);
  const id = await buyAgain(driver);
  const { amount } = await provider<{ amount: number }>(driver, `/v0.1/checkouts/${id}`);
  assert.equal(amount, 11);
  await driver.click('iDEAL');
  await fillPerson(driver);
  await driver.click(PAY);
  await seeText(driver, 'Approve payment');
  await bannerStyled(driver);
  await driver.click('Approve payment');
  await onResultPage(driver, site, id);
  seen.push([id, 'PAID']);
}

/** Boleto: the voucher, Payment pending; paid once the bank settles it (the control route). */
async function boleto(driver: Driver, site: StaticServer, seen: Seen[]): Promise<void> {
  await driver.goto(new URL('./?currency=BRL', site.url).href);
  const id = await buyAgain(driver);
  await driver.click('Boleto');
  await fillBoleto(driver);
  await driver.click(PAY);
  await seeText(driver, 'Pay this boleto at a bank or online');
  await seeText(driver, 'Payment pending');
  assert.equal(await statusOf(driver, id), 'PENDING');
  await provider(driver, `/sandbox/checkouts/${id}/settle`, 'POST', {});
  assert.equal(await statusOf(driver, id), 'PAID');
  seen.push([id, 'PAID']);
}

/**
 * The dashboard's outcome control declines the next payment; the card is declined, and
 * another card pays the new checkout the widget then makes.
 */
async function declinedThenAnother(driver: Driver, site: StaticServer, seen: Seen[]) {
  await driver.goto(new URL('provider/', site.url).href);
  await seeText(driver, 'Set outcome');
  // The control's first outcome: Declined, for any card.
  await driver.click('Set outcome');
  await seeText(driver, 'Outcome set: Declined');
  await driver.goto(new URL('./?redirect=0', site.url).href);
  const declined = await buyAgain(driver);
  await fillCard(driver, CARDS.paid);
  await driver.click(PAY);
  await seeText(driver, 'Your card was declined');
  await driver.click('Try another card');
  await waitFor('the form again', () => driver.run<boolean>(EXISTS, 'control', nameArg(PAY)));
  await fillCard(driver, CARDS.paid);
  await driver.click(PAY);
  await seeText(driver, 'Payment successful');
  const second = await checkoutOn(driver);
  assert.ok(second && second !== declined, 'another checkout');
  assert.equal(await statusOf(driver, declined), 'FAILED');
  assert.equal(await statusOf(driver, second), 'PAID');
  seen.push([declined, 'FAILED'], [second, 'PAID']);
}

/**
 * Stops the site's server, then pays: in German with 3DS as a full page, 3DS in the frame,
 * iDEAL, boleto, and declined (the dashboard's outcome control) then another card.
 */
export async function paysOffline(driver: Driver, site: StaticServer, seen: Seen[]) {
  await stop(site);
  await germanFullPage3ds(driver, site, seen);
  await framed3ds(driver, site, seen);
  await ideal(driver, site, seen);
  await boleto(driver, site, seen);
  await declinedThenAnother(driver, site, seen);
}
