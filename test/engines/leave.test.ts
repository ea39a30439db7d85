/**
 * A shopper who leaves the shop's page while the widget's first calls are out (a link, a
 * reload, Back): the page being left says nothing of them, in any engine, and a navigation
 * that does not happen after all leaves a widget that loads.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Shop, startShop } from '../e2e/shop.ts';
import { scaled } from '../shared/until.ts';
import { type Driver, EXISTS, nameArg, TEXT, waitFor } from './driver.ts';
import { launch } from './launch.ts';
import { type OtherSite, startOtherSite } from './other-site.ts';
import { PAY, slowNext } from './shopper.ts';

const FLOW = { timeout: scaled(60_000) };

/** The page records its widget's payment-error events, and what it shows. */
const RECORD = `window.__errors = [];
document.querySelector('payment-widget').addEventListener('payment-error', (e) => {
  window.__errors.push(e.detail.code);
});
return 1;`;

describe('a page left while the widget loads', () => {
  let shop: Shop;
  let driver: Driver;
  // Another site: /slow answers after 4 s (the old page stays on screen meanwhile), /nothing
  // with 204, which the browser takes as a navigation that does not happen.
  let other: OtherSite;
  let otherUrl = '';

  before(async () => {
    shop = await startShop();
    other = await startOtherSite((request, response) => {
      if (request.url === '/nothing') {
        response.writeHead(204).end();
        return;
      }
      const timer = setTimeout(() => {
        response.writeHead(200, { 'content-type': 'text/html' }).end('<p>Another page</p>');
      }, 4000);
      response.on('close', () => clearTimeout(timer));
    });
    otherUrl = other.url;
    driver = await launch();
  });

  after(async () => {
    await driver?.close();
    other?.close();
    await shop?.close();
  });

  it(
    'a link followed while the checkout is being made: nothing shown, logged or emitted',
    FLOW,
    async () => {
      await driver.said();
      await driver.clearCookies();
      await slowNext(shop, 'POST', '/v0.1/checkouts', 3000);
      await driver.goto(shop.url);
      await driver.run(RECORD);
      await driver.run(
        `setTimeout(() => { location.href = ${JSON.stringify(`${otherUrl}/slow`)}; }); return 1;`,
      );
      // The old page, while the next one is on its way (Firefox fails the call at once).
      await new Promise((resolve) => setTimeout(resolve, scaled(1500)));
      // One script, which Chromium may cut off as the next page comes: then nothing to read.
      const old = await driver
        .run<{ origin: string; shown: string; errors: string[] }>(
          `return { origin: location.origin, shown: (function () {${TEXT}})(), errors: window.__errors };`,
        )
        .catch(() => undefined);
      if (old?.origin === new URL(shop.url).origin) {
        assert.doesNotMatch(old.shown, /could not reach/, `${driver.engine}: the page being left`);
        assert.deepEqual(old.errors, [], `${driver.engine}: payment-error`);
      }
      // (A script run as the page goes may find none: asked again.)
      await waitFor('the next page', async () =>
        (await driver.run<string>(TEXT).catch(() => '')).includes('Another page'),
      );
      // WebKit's console is kept in the shop's own pages (webdriver.ts): read it there.
      await driver.goto(new URL('/demo/favicon.svg', shop.url).href);
      assert.deepEqual(await driver.said(), [], `${driver.engine}: the console`);
    },
  );

  it('a navigation that does not happen (204): the widget loads all the same', FLOW, async () => {
    await driver.said();
    await driver.clearCookies();
    await slowNext(shop, 'POST', '/v0.1/checkouts', 2000);
    await driver.goto(shop.url);
    await driver.run(RECORD);
    await driver.run(`location.href = ${JSON.stringify(`${otherUrl}/nothing`)}; return 1;`);
    await waitFor('the Pay button', () => driver.run<boolean>(EXISTS, 'control', nameArg(PAY)));
    assert.deepEqual(await driver.run('return window.__errors;'), [], 'payment-error');
    assert.deepEqual(await driver.said(), [], `${driver.engine}: the console`);
  });
});
