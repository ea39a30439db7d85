// The README's Next.js section as an app (examples/next: the handler as a Route Handler, the
// basket's cookie set there, `rateLimit.clientAddress`, `PaymentWidget` from
// `payment-widget/react` in a client component and on the result page), built by `next build`
// from the packed package (installed from the tarball outside this checkout, React
// StrictMode on: next-app.ts, which `npm test` runs once for every Node line), started by
// `next start` on this Node, and paid through in Chromium: on a direct load and after a
// reload, and again after "Buy again" (a new basket: a second checkout of the same mug), after
// client-side navigation, and through the result page after a failed 3-D Secure, whose "Try
// another card" offers a card only and pays (a reload then shows it paid); the bank's return
// into the 3-D Secure iframe, which carries no cookie, gets none.
// The browser console stays empty throughout (no hydration warning, no error), and onPaid
// runs once per paid checkout. Its Dutch page (app/nl, `locale="nl-NL"` and nothing else)
// shows Dutch labels: Next.js split the Dutch strings into a chunk by itself.
//
// Next.js and React come from examples/next's own lock. Set KEEP_RUNTIMES=1 to keep the app.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { type Browser, chromium } from '@playwright/test';
// @ts-expect-error -- a plain .mjs helper shared with web-test-runner; it has no type declarations
import { chromiumArgs, headlessChromiumPath } from '../../scripts/browser.mjs';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.ts';
import { type TemporaryFolder, temporaryFolder } from '../node/support/children.ts';
import { NEXT_QUIET, nextApp, nextBin } from './next-app.ts';
import {
  type App,
  PAY,
  paidOnce,
  payOnProductPage,
  resultPageAfterAFailedChallenge,
  shopper,
  theFramedReturnSetsNoBasket,
} from './shop-pages.ts';
import {
  answering,
  freePort,
  providerSettings,
  type Running,
  showsDutch,
  start,
} from './support.ts';

let folder: TemporaryFolder | undefined;
let app = '';
let origin = '';
let sandbox: Sandbox;
const sandboxLog: string[] = [];
let server: Running | undefined;
let browser: Browser;
/** The running app, as the shared flows take it. */
let shop: App;

before(async () => {
  folder = temporaryFolder('payment-widget-next-', { keep: Boolean(process.env.KEEP_RUNTIMES) });
  app = await nextApp(folder.dir);
  const next = nextBin(app);

  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  sandbox = await createSandbox({ port: 0, log: (line) => sandboxLog.push(line) });
  server = start(process.execPath, [next, 'start', '-H', '127.0.0.1', '-p', `${port}`], {
    cwd: app,
    env: { ...NEXT_QUIET, ...providerSettings(sandbox), SHOP_ORIGIN: origin },
  });
  await answering(`${origin}/`, server);
  shop = { origin, server, sandbox, sandboxLog };
  browser = await chromium.launch({
    executablePath: headlessChromiumPath() as string,
    args: chromiumArgs as string[],
  });
});

after(async () => {
  await browser?.close();
  await server?.stop();
  await sandbox?.close();
  if (process.env.KEEP_RUNTIMES) console.log(`the Next.js app kept in ${app}`);
  // The app npm test built for every Node line is not this run's to remove (nextApp).
  else folder?.remove();
});

test('loaded directly and reloaded, the server-rendered page pays, its console quiet', async () => {
  const { page, problems } = await shopper(browser);
  const html = await (await fetch(`${origin}/`)).text();
  // Rendered by the server: the element, with the attribute the reserve-height rule reads.
  assert.match(html, /<payment-widget payment-methods="card ideal bancontact"><\/payment-widget>/);
  await page.goto(`${origin}/`);
  await page.getByRole('button', { name: PAY }).waitFor();
  await page.reload();
  // The basket's cookie: the reload shows the same checkout, and pays it.
  await page.getByRole('button', { name: PAY }).waitFor();
  const id = await payOnProductPage(page);
  await paidOnce(shop, id);
  // The basket is paid: the page shows it so, never a second form.
  await page.reload();
  await page.getByText('Payment successful').waitFor();
  // The shopper's next mug, deliberately: "Buy again" (app/actions.ts) starts a new basket,
  // whose checkout is a new one to pay (before, the page offered none).
  await page.getByRole('button', { name: 'Buy again' }).click({ timeout: 10_000 });
  await page.getByRole('button', { name: PAY }).waitFor();
  const next = await payOnProductPage(page);
  assert.notEqual(next, id);
  await paidOnce(shop, next);
  await page.reload();
  await page.getByText('Payment successful').waitFor();
  assert.deepEqual(problems, []);
  await page.context().close();
});

test('reached by client-side navigation, the same page pays, its console quiet', async () => {
  const { page, problems } = await shopper(browser);
  await page.goto(`${origin}/start`);
  await page.getByRole('link', { name: 'To the mug' }).click();
  await page.waitForURL(`${origin}/`);
  await page.getByRole('button', { name: PAY }).waitFor();
  const id = await payOnProductPage(page);
  await paidOnce(shop, id);
  assert.deepEqual(problems, []);
  await page.context().close();
});

test('after a failed 3-D Secure, the result page offers another card, a card only, and a reload shows it paid', async () => {
  await resultPageAfterAFailedChallenge(browser, shop);
});

test('the bank’s return in the widget’s iframe, which carries no cookie, sets no basket', async () => {
  await theFramedReturnSetsNoBasket(shop, '/api/payments');
});

test('in Dutch (app/nl: `locale="nl-NL"` and nothing else), the page shows Dutch labels', async () => {
  const { page, problems } = await shopper(browser);
  await page.goto(`${origin}/nl`);
  // Next.js split the Dutch strings into a chunk of its own, which the widget loaded.
  await showsDutch(page, '12,50', problems);
  await page.context().close();
});
