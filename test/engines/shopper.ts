/**
 * What a shopper does in the demo shop, and what they and the shop then see,
 * over any Driver: the steps every cross-engine flow is made of.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basketCheckout, CARDS, EXPIRY, type Shop, webhooksAnswered } from '../e2e/shop.ts';
import { type Driver, EXISTS, FOCUSED, nameArg, TEXT, waitFor } from './driver.ts';

export { CARDS };

/** The provider takes `ms` over the next `method` call under `path` (the sandbox's latency fault, once). */
export async function slowNext(
  shop: Shop,
  method: string,
  path: string,
  ms: number,
): Promise<void> {
  const fault = await shop.provider('POST', '/sandbox/faults', {
    method,
    path,
    kind: 'latency',
    delayMs: ms,
  });
  assert.equal(fault.status, 201);
}

/** The widget's own Pay (or Donate) button, whatever the amount. */
export const PAY = /^(Pay|Donate) /;

/**
 * Opens a shop page as a new shopper (a basket of their own), waits until the widget's form
 * can be paid, and returns the checkout id.
 */
export async function openShop(driver: Driver, shop: Shop, path: string): Promise<string> {
  const url = new URL(path, shop.url).href;
  await driver.clearCookies();
  await driver.goto(url);
  try {
    await waitFor('the Pay button', () => driver.run<boolean>(EXISTS, 'control', nameArg(PAY)));
  } catch (error) {
    // What the shopper would see, so that a page that never got ready says why.
    const seen = await driver
      .run<string>(
        `return location.href + ' (' + document.readyState + '): ' + (function () {${TEXT}})();`,
      )
      .catch((reason: unknown) => `unreadable: ${String(reason)}`);
    throw new Error(`${error instanceof Error ? error.message : String(error)}; the page: ${seen}`);
  }
  const id = await driver.run<string | null>(
    "return document.querySelector('payment-widget').getAttribute('checkout-id');",
  );
  if (id) return id;
  // A page that names its checkout by `order`: the basket's, which the widget was answered.
  return basketCheckout(shop, await driver.cookie('shop_basket'));
}

export async function fillCard(driver: Driver, number: string): Promise<void> {
  await driver.fill('Card number', number);
  await driver.fill('Expiry date', EXPIRY);
  await driver.fill('Security code', '123');
  await driver.fill('Name on card', 'Ada Lovelace');
}

/** The shopper's details every bank method and boleto asks for. */
export async function fillPerson(driver: Driver, first = 'Ada', last = 'Lovelace'): Promise<void> {
  await driver.fill('First name', first);
  await driver.fill('Last name', last);
  await driver.fill('Email', `${first.toLowerCase()}@example.com`);
}

/** The boleto's fields, as the sandbox's Brazilian shopper fills them (a valid CPF). */
export async function fillBoleto(driver: Driver): Promise<void> {
  await fillPerson(driver, 'Ana', 'Silva');
  await driver.fill('CPF or CNPJ', '529.982.247-25');
  await driver.fill('Street and number', 'Avenida Paulista 1000');
  await driver.fill('City', 'São Paulo');
  await driver.fill('State', 'SP');
  await driver.fill('Postal code', '01310100');
}

/**
 * With the next card payment set to be declined (the sandbox's outcome control): a test card is
 * declined, "Try another card" shows the form again, and a test card pays. Returns the checkout
 * the widget then names, which paid (the declined one is over; the widget made another).
 */
export async function declinedThenAnotherCard(driver: Driver): Promise<string> {
  await fillCard(driver, CARDS.paid);
  await driver.click(PAY);
  await seeText(driver, 'Your card was declined');
  return anotherCardPays(driver, 'Try another card');
}

/**
 * On a failure's outcome, `retry` ("Try another card", "Try another way to pay") shows the
 * form again, and a test card pays. Returns the checkout that paid (the widget made it).
 */
export async function anotherCardPays(driver: Driver, retry: string): Promise<string> {
  await driver.click(retry);
  await waitFor('the form again', () => driver.run<boolean>(EXISTS, 'control', nameArg(PAY)));
  await fillCard(driver, CARDS.paid);
  // The checkout that paid, as the page hears of it (an order's widget names no checkout-id).
  await driver.run(
    "document.addEventListener('payment-success', (e) => { window.paidId = e.detail.checkout.id; });",
  );
  await driver.click(PAY);
  await seeText(driver, 'Payment successful');
  const paid = await driver.run<string | null>('return window.paidId;');
  assert.ok(paid, 'the widget names the checkout that paid');
  return paid;
}

/**
 * The `MD` of the 3-D Secure challenge showing in the widget's frame, once its page has
 * loaded: the same after a reload means the same challenge shown again.
 */
export function challengeMd(driver: Driver): Promise<string> {
  return driver.inFrame(() =>
    waitFor('the challenge page', () =>
      driver.run<string>("return document.querySelector('input[name=MD]')?.value;"),
    ),
  );
}

/** Waits until the page (or the frame the driver is in) shows `text`. */
export async function seeText(driver: Driver, text: string): Promise<void> {
  let shown = '';
  try {
    await waitFor(`"${text}" on the page`, async () => {
      shown = await driver.run<string>(TEXT);
      return shown.includes(text);
    });
  } catch (error) {
    // What the page said instead: a status line, an error, another page.
    throw new Error(`${(error as Error).message}; the page showed: ${shown.slice(0, 400)}`, {
      cause: error,
    });
  }
}

/** Asserts the page does not show `text` (right now). */
export async function notSeeText(driver: Driver, text: string): Promise<void> {
  assert.ok(!(await driver.run<string>(TEXT)).includes(text), `"${text}" is on the page`);
}

/**
 * Waits for the shop's hook on this checkout, then for what would run it again (every
 * webhook about it answered), then asserts it ran exactly once.
 */
export async function shopSaw(shop: Shop, id: string, hook: 'paid' | 'failed'): Promise<void> {
  const status = hook === 'paid' ? 'PAID' : 'FAILED';
  await waitFor(`on${hook === 'paid' ? 'Paid' : 'Failed'} for ${id}`, async () =>
    shop.hooks.some((h) => h.id === id),
  );
  await webhooksAnswered(shop, id);
  assert.deepEqual(
    shop.hooks.filter((h) => h.id === id),
    [{ hook, id, status }],
  );
}

/** The statuses the sandbox answered the browser's GETs of its pages under `path`, oldest first. */
export async function pageLoads(shop: Shop, path: string): Promise<number[]> {
  const log = (await (await shop.provider('GET', '/sandbox/requests')).json()) as {
    method: string;
    path: string;
    status: number;
  }[];
  return log
    .filter((r) => r.method === 'GET' && r.path.startsWith(path))
    .map((r) => r.status)
    .reverse();
}

/** The focused control's name (label or text), through shadow roots. */
export function focused(driver: Driver): Promise<string> {
  return driver.run<string>(FOCUSED);
}

/** Presses Tab until the control named `name` has focus. */
export async function tabTo(driver: Driver, name: string, max = 25): Promise<void> {
  for (let i = 0; i < max; i += 1) {
    if ((await focused(driver)) === name) return;
    await driver.press('Tab');
  }
  throw new Error(`Tab never reached "${name}" (at "${await focused(driver)}")`);
}

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core's violations inside the widget, as `rule: target`, axe injected into the page. */
export async function axeViolations(driver: Driver): Promise<string[]> {
  await driver.run(`if (!window.axe) { ${AXE}\n }`);
  return driver.run<string[]>(`
    const results = await window.axe.run(document.querySelector('payment-widget'));
    return results.violations.flatMap((v) => v.nodes.map((n) => v.id + ': ' + n.target.join(' ')));
  `);
}
