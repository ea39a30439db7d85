/**
 * The panel beside the shop's widget (site/playground/): each option changes the widget while
 * the page stays the same page (a mark set in it survives), and the page's code it copies,
 * pasted into a fresh page served beside the site's files, renders the same widget. (How 3-D Secure
 * shows is checked on the element and in the code, not by a payment.)
 */
import assert from 'node:assert/strict';
import { type Driver, EXISTS, nameArg, waitFor } from '../engines/driver.ts';
import type { StaticServer } from './static-server.ts';
import { buyAgain, checkoutOn, provider } from './visitor.ts';

/** The widget's Pay button at 12.00, in English and in German. */
const PAY_12 = /^Pay .*12\.00$/;
const ZAHLEN = /^12,00 € bezahlen$/;

/** Page script: sets the panel's control `#id` to `value` (a checkbox: its checked state) as a change would. */
const SET = `
const [id, value] = arguments;
const control = document.getElementById(id);
if (control.type === 'checkbox') control.checked = value; else control.value = value;
control.dispatchEvent(new Event('change', { bubbles: true }));
`;

/** Page script: the widget's text colour (its theme), and whether the page is still the one marked. */
const LOOK = `
const widget = document.querySelector('payment-widget');
return { color: getComputedStyle(widget).color, same: window.playgroundMark === true };
`;

/** Page script: what the panel's status line says. */
const STATUS = "return document.querySelector('.playground-status').textContent;";

/** A fresh page of the site's origin, beside the package's files, holding only `code`. */
const freshPage = (code: string) =>
  `<!doctype html>\n<html lang="en">\n<head><meta charset="utf-8" /><title>Pasted</title></head>\n<body>\n${code}\n</body>\n</html>\n`;

const look = (driver: Driver) => driver.run<{ color: string; same: boolean }>(LOOK);

/** Options the panel has are the widget's, live; its code renders the same widget elsewhere. */
export async function playgroundHolds(driver: Driver, site: StaticServer): Promise<void> {
  await driver.goto(new URL('./', site.url).href);
  await buyAgain(driver);
  await driver.run('window.playgroundMark = true;');
  const light = await look(driver);

  // The amount: the shop prices the new order, the widget loads its checkout.
  await driver.run(SET, 'playground-amount', '12.00');
  await driver.click('Apply amount');
  await waitFor('the Pay button at 12.00', () =>
    driver.run<boolean>(EXISTS, 'control', nameArg(PAY_12)),
  );
  // The methods: without iDEAL.
  assert.ok(await driver.run<boolean>(EXISTS, 'control', nameArg('iDEAL')));
  await driver.run(SET, 'playground-method-ideal', false);
  await waitFor('the widget without iDEAL', async () => {
    const pay = await driver.run<boolean>(EXISTS, 'control', nameArg(PAY_12));
    return pay && !(await driver.run<boolean>(EXISTS, 'control', nameArg('iDEAL')));
  });
  // The theme, and the language.
  await driver.run(SET, 'playground-theme', 'dark');
  const dark = await waitFor('the dark theme', async () => {
    const now = await look(driver);
    return now.color !== light.color ? now : undefined;
  });
  await driver.run(SET, 'playground-locale', 'de-DE');
  await waitFor('the widget in German', () =>
    driver.run<boolean>(EXISTS, 'control', nameArg(ZAHLEN)),
  );

  // How 3-D Secure shows: on the element, and so in the page's code.
  await driver.run(SET, 'playground-challenge', 'iframe');
  assert.equal(
    await driver.run<string>("return document.querySelector('payment-widget').challenge;"),
    'iframe',
  );
  const id = await checkoutOn(driver);
  assert.ok(id);
  assert.equal((await provider<{ amount: number }>(driver, `/v0.1/checkouts/${id}`)).amount, 12);
  assert.equal((await look(driver)).same, true, 'the page never reloaded');

  // The page's code, copied, then pasted into a fresh page: the same widget, methods, language
  // and theme, and the same 3DS mode.
  await driver.click('Copy the page’s code');
  // Copied; or where the engine refuses the clipboard, selected for the keyboard to copy.
  const said = await waitFor('the copy', async () => {
    const now = await driver.run<string>(STATUS);
    return now.startsWith('The page’s code') ? now : undefined;
  });
  assert.match(said, /^The page’s code (copied|selected: copy it with your keyboard)\.$/);
  const code = await driver.run<string>(
    "return document.getElementById('playground-page-code').textContent;",
  );
  assert.match(code, /challenge="iframe"/);
  await driver.goto(site.put('pasted.html', freshPage(code)));
  await waitFor('the pasted widget', () => driver.run<boolean>(EXISTS, 'control', nameArg(ZAHLEN)));
  assert.equal(await driver.run<boolean>(EXISTS, 'control', nameArg('iDEAL')), false);
  assert.ok(await driver.run<boolean>(EXISTS, 'control', nameArg('Bancontact')));
  assert.equal((await look(driver)).color, dark.color);
  assert.equal(
    await driver.run<string>("return document.querySelector('payment-widget').challenge;"),
    'iframe',
  );
}
