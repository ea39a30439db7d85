/**
 * The layout docs/spa.md calls "the app and the handler on two origins", in the engine ENGINE
 * names: the shop's page on one origin (it sets the basket's cookie, as the README's backend
 * does), the payment handler on another, which lists the page's origin in `allowedOrigins`;
 * the widget's `endpoint` is the handler's full URL. Two origins of one site, as
 * shop.example and api.shop.example are: the basket's cookie is the site's, so the handler
 * finds the basket's one checkout on every call the widget makes, and a reload during the
 * 3DS challenge shows the same challenge, a reload after paying the paid order; a full-page
 * 3DS comes back through the handler's origin to the result page on the shop's, in a frame too
 * when the shop frames its own page.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Sandbox } from '../../src/sandbox/index.ts';
import { PaymentHandlerError, toNodeListener, widgetTags } from '../../src/server/index.ts';
import { CARDS } from '../e2e/shop.ts';
import { type Harness, makeHandler, startSandbox } from '../node/server/fixtures.ts';
import { scaled } from '../shared/until.ts';
import { type Driver, EXISTS, nameArg, waitFor } from './driver.ts';
import { launch } from './launch.ts';
import { challengeMd, fillCard, PAY, seeText } from './shopper.ts';

const FLOW = { timeout: scaled(60_000) };
const DIST = 'dist';

/** Listens on a free loopback port; returns the server and its origin. */
async function listen(
  serve: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<{ server: Server; origin: string }> {
  const server = createServer(serve);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

const basketOf = (cookie: string | null | undefined) =>
  /(?:^|;\s*)basket=([\w-]{36})/.exec(cookie ?? '')?.[1];

describe('the page on one origin, the payment handler on another', () => {
  let sb: Sandbox;
  let shop: { server: Server; origin: string };
  let api: { server: Server; origin: string };
  let harness: Harness;
  let driver: Driver;
  /** The basket each checkout the handler made was for: what its calls carried. */
  const baskets: (string | undefined)[] = [];

  before(async () => {
    assert.ok(existsSync(join(DIST, 'integrity.json')), 'dist/ is missing: run `npm run build`');
    sb = await startSandbox();
    let payments: ReturnType<typeof toNodeListener> | undefined;
    api = await listen((req, res) => {
      if (payments) payments(req, res);
      else res.writeHead(503).end();
    });
    shop = await listen((req, res) => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      if (path === '/pay' || path === '/pay-full') return void page(req, res);
      if (path === '/result') return void result(req, res);
      if (path === '/framed') {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        return void res.end(
          '<!doctype html><html lang="en"><title>Your order</title><iframe title="Payment" src="/pay-full" style="width:100%;height:700px"></iframe></html>',
        );
      }
      const file = path.replace(/^\/assets\//, '');
      if (path.startsWith('/assets/') && !file.includes('..') && existsSync(join(DIST, file))) {
        res.writeHead(200, { 'content-type': 'text/javascript' });
        return void res.end(readFileSync(join(DIST, file)));
      }
      res.writeHead(404).end();
    });
    harness = makeHandler(sb, {
      publicUrl: `${api.origin}/payments`,
      allowedOrigins: [shop.origin],
      // Full-page flows come back to the shop's own pages, on its origin.
      resultPages: { success: `${shop.origin}/result`, failure: `${shop.origin}/result` },
      // The README's resolveCheckout: the basket in the cookie is the checkout's reference.
      resolveCheckout(order, request) {
        const sku = (order as { sku?: unknown } | null)?.sku;
        if (sku !== 'tea')
          throw new PaymentHandlerError(400, 'INVALID', 'No such product', 'order');
        const basket = basketOf(request.headers.get('cookie'));
        baskets.push(basket);
        const redirect = (order as { full?: unknown }).full === true;
        const price = { amount: 10, currency: 'EUR', redirect, description: 'Tea' };
        return basket === undefined ? price : { ...price, reference: `order-${basket}` };
      },
    });
    payments = toNodeListener(harness.handle);
    driver = await launch();
  });

  after(async () => {
    await driver?.close();
    for (const { server } of [shop, api]) {
      server?.closeAllConnections();
      await new Promise((resolve) => server?.close(resolve));
    }
    await sb?.close();
  });

  /** The product page: the basket's cookie, then the widget pointed at the other origin. */
  function page(req: IncomingMessage, res: ServerResponse): void {
    const cookie = basketOf(req.headers.cookie)
      ? {}
      : { 'set-cookie': `basket=${randomUUID()}; Path=/; HttpOnly; SameSite=Lax` };
    const full = req.url?.startsWith('/pay-full') === true;
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...cookie });
    res.end(html(`order='{"sku":"tea"${full ? ',"full":true' : ''}}'`));
  }

  /** The result page a full-page flow ends on: the checkout named in its address. */
  function result(req: IncomingMessage, res: ServerResponse): void {
    const id = new URL(req.url ?? '/', shop.origin).searchParams.get('checkout_id') ?? '';
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(html(`checkout-id="${encodeURIComponent(id)}"`));
  }

  const html = (attributes: string) =>
    `<!doctype html><html lang="en"><head><title>Tea</title>${widgetTags({ assetsUrl: '/assets/' }).html}</head>
    <body><payment-widget endpoint="${api.origin}/payments" ${attributes}></payment-widget></body></html>`;

  it(
    'a reload during 3DS shows the same challenge, and a reload after paying the paid order',
    FLOW,
    async () => {
      await driver.clearCookies();
      await driver.said();
      await driver.goto(`${shop.origin}/pay`);
      await waitFor('the Pay button', () => driver.run<boolean>(EXISTS, 'control', nameArg(PAY)));
      await fillCard(driver, CARDS.challenge);
      await driver.click(PAY);
      const md = await challengeMd(driver);
      await driver.goto(`${shop.origin}/pay`);
      assert.equal(await challengeMd(driver), md, 'the reload showed another challenge');
      await driver.inFrame(() => driver.click('Complete authentication'));
      await seeText(driver, 'Payment successful');
      await driver.goto(`${shop.origin}/pay`);
      await seeText(driver, 'Payment successful');
      const basket = await driver.cookie('basket');
      assert.ok(basket, 'the page set no basket');
      assert.deepEqual(
        baskets,
        baskets.map(() => basket),
        "the handler did not see the basket's cookie on every call",
      );
      assert.equal(harness.paid.length, 1);
      // A refused CORS answer or cookie would be an error here in every engine.
      assert.deepEqual(await driver.said(), [], `${driver.engine}: the console`);
    },
  );

  it('a full-page 3DS comes back to the result page on the shop origin, paid', FLOW, async () => {
    await driver.clearCookies();
    await driver.said();
    baskets.length = 0;
    await driver.goto(`${shop.origin}/pay-full`);
    await waitFor('the Pay button', () => driver.run<boolean>(EXISTS, 'control', nameArg(PAY)));
    await fillCard(driver, CARDS.challenge);
    await driver.click(PAY);
    await driver.click('Complete authentication');
    await waitFor('the result page', async () =>
      (await driver.url()).startsWith(`${shop.origin}/result?checkout_id=`),
    );
    await seeText(driver, 'Payment successful');
    const basket = await driver.cookie('basket');
    assert.deepEqual(baskets, [basket], "the checkout was not the basket's");
    assert.deepEqual(await driver.said(), [], `${driver.engine}: the console`);
  });

  it(
    'in a page framed by the shop, a full-page 3DS ends on the result page in the frame',
    FLOW,
    async () => {
      await driver.clearCookies();
      await driver.said();
      await driver.goto(`${shop.origin}/framed`);
      await driver.inFrame(async () => {
        await waitFor('the Pay button', () => driver.run<boolean>(EXISTS, 'control', nameArg(PAY)));
        await fillCard(driver, CARDS.challenge);
        await driver.click(PAY);
        await driver.click('Complete authentication');
        // The handler's page for a frame goes on from a frame not the widget's challenge frame
        // (before, it stayed: "Authentication finished.", and nothing more).
        await waitFor('the result page in the frame', async () =>
          (await driver.run<string>('return location.href')).startsWith(`${shop.origin}/result?`),
        );
        await seeText(driver, 'Payment successful');
      });
      assert.equal(await driver.url(), `${shop.origin}/framed`);
      assert.deepEqual(await driver.said(), [], `${driver.engine}: the console`);
    },
  );
});
