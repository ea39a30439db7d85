/**
 * The static site after its first visit, with its server stopped: every file a payment needs
 * comes from what the worker cached when it installed (the 3DS step, the bank method's, a
 * language the first visit never loaded), not from the browser's HTTP cache, which a server
 * answering `Cache-Control: no-cache` (as the suite's does at the root) leaves nothing to give;
 * under a path, the worker's scope and the URLs it cached hold there. Between them, every flow
 * of the playground: each card outcome, the bank methods, boleto, the dashboard's outcome,
 * webhook faults and replay, its clock and its reset.
 */
import assert from 'node:assert/strict';
import { EXPIRY } from '../e2e/shop.ts';
import { type Driver, TEXT, waitFor } from '../engines/driver.ts';
import {
  CARDS,
  declinedThenAnotherCard,
  fillBoleto,
  fillCard,
  fillPerson,
  PAY,
  seeText,
} from '../engines/shopper.ts';
import type { StaticServer } from './static-server.ts';
import {
  bannerStyled,
  buyAgain,
  onResultPage,
  openShop,
  provider,
  type Seen,
  statusOf,
} from './visitor.ts';

/** The widget's Pay button in German ("10,00 € bezahlen"). */
const ZAHLEN = /bezahlen$/;

/** The server stopped: nothing of the site can be fetched any more. */
export async function stop(site: StaticServer): Promise<void> {
  await site.stop();
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

/** 3DS as a full page at the provider's challenge page, back on the result page. */
async function fullPage3ds(driver: Driver, site: StaticServer, seen: Seen[]): Promise<void> {
  await driver.goto(new URL('./', site.url).href);
  const id = await buyAgain(driver);
  await fillCard(driver, CARDS.challenge);
  await driver.click(PAY);
  // The provider's challenge page, its banner styled under the page's own policy.
  await seeText(driver, 'Complete authentication');
  await bannerStyled(driver);
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
 * A bank method (its radio's name) on the shop page `path`, approved or declined at the
 * simulated bank, back on the result page.
 */
async function bank(
  driver: Driver,
  site: StaticServer,
  seen: Seen[],
  [method, path, status]: [method: string, path: string, status: Seen[1]],
): Promise<string> {
  await driver.goto(new URL(path, site.url).href);
  const id = await buyAgain(driver);
  await driver.click(method);
  await fillPerson(driver);
  await driver.click(PAY);
  await seeText(driver, 'Approve payment');
  await bannerStyled(driver);
  await driver.click(status === 'PAID' ? 'Approve payment' : 'Decline payment');
  await onResultPage(driver, site, id, status);
  seen.push([id, status]);
  return id;
}

/** iDEAL at 11.00, an amount that declines every card and no bank method: paid. */
async function ideal(driver: Driver, site: StaticServer, seen: Seen[]): Promise<void> {
  const id = await bank(driver, site, seen, ['iDEAL', './?amount=11.00', 'PAID']);
  const { amount } = await provider<{ amount: number }>(driver, `/v0.1/checkouts/${id}`);
  assert.equal(amount, 11);
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

/** A webhook delivery, as the sandbox lists it. */
interface Delivery {
  id: string;
  payload: { id?: string };
  state: string;
  fault?: string;
  replay_of?: string;
}

/**
 * The dashboard's outcome control declines the next payment, and its webhook faults drop the
 * next delivery; the card is declined (the delivery that says so dropped), and another card
 * pays the new checkout the widget then makes. The dropped delivery, replayed from the
 * dashboard, is delivered.
 */
async function declinedThenAnother(driver: Driver, site: StaticServer, seen: Seen[]) {
  await driver.goto(new URL('provider/', site.url).href);
  await seeText(driver, 'Set outcome');
  // The control's first outcome: Declined, for any card.
  await driver.click('Set outcome');
  await seeText(driver, 'Outcome set: Declined');
  await driver.click(/^Webhooks/);
  // The form's first fault, for one delivery: Drop.
  await driver.click('Add fault');
  await seeText(driver, 'Fault added: drop');
  await seeText(driver, 'next 1 delivery');
  await driver.goto(new URL('./?redirect=0', site.url).href);
  const declined = await buyAgain(driver);
  const second = await declinedThenAnotherCard(driver);
  assert.notEqual(second, declined, 'another checkout');
  assert.equal(await statusOf(driver, declined), 'FAILED');
  assert.equal(await statusOf(driver, second), 'PAID');
  seen.push([declined, 'FAILED'], [second, 'PAID']);

  await driver.goto(new URL('provider/#webhooks', site.url).href);
  const deliveries = () => provider<Delivery[]>(driver, '/sandbox/webhook-deliveries');
  const dropped = (await deliveries()).find((d) => d.state === 'dropped');
  assert.ok(dropped, 'a delivery dropped');
  assert.equal(dropped.fault, 'drop');
  assert.equal(dropped.payload.id, declined, 'the decline’s notification was the one dropped');
  await seeText(driver, 'fault: drop');
  await driver.click(`Replay delivery ${dropped.id}`);
  await seeText(driver, `Delivery ${dropped.id} replayed`);
  await seeText(driver, `Replay of ${dropped.id}`);
  await waitFor('the replay delivered', async () =>
    (await deliveries()).some((d) => d.replay_of === dropped.id && d.state === 'delivered'),
  );
}

/** The reason the widget gives for a checkout past its valid_until. */
const EXPIRED = 'This payment is no longer valid';

/**
 * On the dashboard, its clock moved a minute ahead: a checkout the shop gives 30 seconds is
 * over before the shopper pays, and the widget says so.
 */
export async function clockAhead(driver: Driver, site: StaticServer): Promise<void> {
  // The form's first step: 1 minute.
  await driver.click('Advance clock');
  await seeText(driver, 'Clock moved forward 1 minute');
  await seeText(driver, '+1 min ahead');
  const id = await openShop(driver, site, './?redirect=0&expires_in=30');
  await fillCard(driver, CARDS.paid);
  await driver.click(PAY);
  await seeText(driver, EXPIRED);
  assert.ok(!(await driver.run<string>(TEXT)).includes('Payment successful'));
  assert.equal(await statusOf(driver, id), 'PENDING');
}

/**
 * On the dashboard: its reset clears every checkout and puts the clock back, and the shop
 * starts a new basket.
 */
export async function resetClears(driver: Driver, site: StaticServer, seen: Seen[]) {
  await driver.goto(new URL('provider/', site.url).href);
  await seeText(driver, seen[0]![0]);
  await driver.click('Reset sandbox…');
  await driver.click('Reset everything');
  await seeText(driver, 'Sandbox reset');
  // The clock back, where it was a minute ahead.
  await seeText(driver, 'real time');
  const left = await provider<unknown[]>(driver, '/v0.1/checkouts');
  assert.deepEqual(left, []);
  const id = await openShop(driver, site, './');
  assert.ok(!seen.some(([old]) => old === id), 'a new basket, a new checkout');
}

/**
 * At the root, served with `Cache-Control: no-cache`, its server stopped: pays in German
 * with 3DS as a full page, with iDEAL at 11.00, boleto, BLIK declined at the bank.
 */
export async function paysOfflineAtRoot(driver: Driver, site: StaticServer, seen: Seen[]) {
  await germanFullPage3ds(driver, site, seen);
  await ideal(driver, site, seen);
  await boleto(driver, site, seen);
  await bank(driver, site, seen, ['BLIK', './?currency=PLN', 'FAILED']);
}

/**
 * Under a path, its server stopped: pays with 3DS as a full page and in the frame, with
 * Bancontact, and declined (the dashboard's outcome control) then another card, a webhook
 * dropped by a fault and replayed.
 */
export async function paysOfflineUnderPath(driver: Driver, site: StaticServer, seen: Seen[]) {
  await fullPage3ds(driver, site, seen);
  await framed3ds(driver, site, seen);
  await bank(driver, site, seen, ['Bancontact', './', 'PAID']);
  await declinedThenAnother(driver, site, seen);
}
