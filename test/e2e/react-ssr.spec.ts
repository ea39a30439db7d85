/**
 * `payment-widget/react` in a server-rendered React page, as Next.js serves it: the HTML
 * from react-dom/server, then hydrated in the browser by React's development build in
 * StrictMode, which reports every hydration mismatch as a console error. The element
 * upgrades before hydration, so it must wait for what hydration sets (its `order`, its
 * listeners) and must not touch its host's attributes meanwhile. The Next.js app itself
 * (production build, from the packed package) is test/runtimes' `next`.
 */
import type { Page } from '@playwright/test';
import { build } from 'esbuild';
import { renderToString } from 'react-dom/server';
import { CARDS, expect, fillCard, pay, test, watchProblems } from './fixtures.ts';
import { type PageName, page } from './react-ssr/app.ts';

let client = '';

test.beforeAll(async () => {
  const bundled = await build({
    entryPoints: [new URL('./react-ssr/client.ts', import.meta.url).pathname],
    bundle: true,
    format: 'esm',
    write: false,
    define: { 'process.env.NODE_ENV': '"development"' },
    logLevel: 'silent',
  });
  client = bundled.outputFiles[0]?.text ?? '';
});

interface Opened {
  /** Console errors and warnings, failed requests, uncaught errors, `payment-error`s. */
  problems: string[];
  /** The calls to the handler, as `POST /payments/checkouts`. */
  calls: string[];
  /** What the server rendered. */
  html: string;
}

async function open(
  browserPage: Page,
  shopUrl: string,
  name: PageName,
  checkoutId?: string,
): Promise<Opened> {
  const problems = await watchProblems(browserPage);
  // Whatever the widget reports, even before anything could listen to it.
  await browserPage.addInitScript(() => {
    document.addEventListener('payment-error', (event) => {
      console.error(`payment-error: ${(event as CustomEvent<{ code: string }>).detail.code}`);
    });
  });
  const calls: string[] = [];
  browserPage.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if (pathname.startsWith('/payments/')) calls.push(`${request.method()} ${pathname}`);
  });
  const html = `<!doctype html><html lang="en"><title>Shop</title><body><div id="root" data-page="${name}" data-checkout="${checkoutId ?? ''}">${renderToString(page(name, checkoutId))}</div><script type="module" src="/assets/ssr-client.js"></script></body></html>`;
  await browserPage.route(new URL('/ssr/page', shopUrl).href, (route) =>
    route.fulfill({ contentType: 'text/html', body: html }),
  );
  // Beside the built widget, where its locale files are (`/assets/locales/`).
  await browserPage.route(new URL('/assets/ssr-client.js', shopUrl).href, (route) =>
    route.fulfill({ contentType: 'text/javascript', body: client }),
  );
  await browserPage.goto(new URL('/ssr/page', shopUrl).href);
  return { problems, calls, html };
}

test('<PaymentWidget> rendered by the server and hydrated pays, with no hydration warning', async ({
  page: browserPage,
  shop,
}) => {
  const { problems, calls, html } = await open(browserPage, shop.url, 'component');
  // Server-rendered: the element and the attribute the reserve-height rule reads, nothing else.
  expect(html).toContain('<payment-widget payment-methods="card ideal bancontact">');
  // The listener hydration added heard payment-ready: nothing fired before it was there.
  // (The page's own status line: the widget has live regions of its own.)
  const status = browserPage.locator('#root > p[role=status]');
  await expect(status).toHaveText('ready');
  await expect(browserPage.getByRole('button', { name: 'Pay €12.50' })).toBeEnabled();
  await browserPage.getByRole('radio', { name: 'Card' }).check();
  await fillCard(browserPage, CARDS.paid);
  await pay(browserPage);
  await expect(browserPage.getByText('Payment successful')).toBeVisible();
  await expect(status).toHaveText(/^Paid: [\w-]+$/);
  // One checkout, created once hydration had set the order.
  expect(calls.filter((call) => call === 'POST /payments/checkouts')).toHaveLength(1);
  expect(problems).toEqual([]);
});

test('the bare tag hydrates while the widget loads, with no hydration warning', async ({
  page: browserPage,
  shop,
}) => {
  // The checkout is held back until React has hydrated: hydration meets the widget loading.
  let hydrated: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    hydrated = resolve;
  });
  await browserPage.route(new URL('/payments/checkouts', shop.url).href, async (route) => {
    await held;
    await route.continue();
  });
  const { problems } = await open(browserPage, shop.url, 'bare-tag');
  await expect.poll(() => browserPage.evaluate(() => window.hydrated)).toBe(true);
  hydrated();
  await expect(browserPage.getByRole('button', { name: '12,50 € bezahlen' })).toBeEnabled();
  // The host has the server's attributes, and only those.
  expect(
    await browserPage.locator('payment-widget').evaluate((el) => el.getAttributeNames()),
  ).toEqual(['order', 'endpoint', 'locale', 'payment-methods']);
  expect(problems).toEqual([]);
});

test('a result page whose state changes with each event: "Try another card" pays the next checkout', async ({
  page: browserPage,
  shop,
}) => {
  const created = await browserPage.request.post(new URL('/payments/checkouts', shop.url).href, {
    data: { order: { sku: 'mug' } },
    headers: { origin: new URL(shop.url).origin },
  });
  const first = ((await created.json()) as { id: string }).id;
  // The next payment with this card is declined (the sandbox's outcome control).
  expect(
    (
      await shop.provider('POST', '/sandbox/outcomes', {
        outcome: 'declined',
        card: CARDS.paid.slice(-4),
      })
    ).status,
  ).toBe(201);
  const { problems } = await open(browserPage, shop.url, 'result', first);
  const status = browserPage.locator('#root > p[role=status]');
  await expect(status).toHaveText(`ready: ${first}`);
  await fillCard(browserPage, CARDS.paid);
  await pay(browserPage);
  await expect(status).toHaveText('failed');
  await browserPage.getByRole('button', { name: 'Try another card' }).click();
  // React renders the page again on payment-ready: the widget stays on the next checkout.
  await expect(status).toHaveText(/^ready: /);
  expect(await status.textContent()).not.toBe(`ready: ${first}`);
  await fillCard(browserPage, CARDS.paid);
  await pay(browserPage);
  await expect(browserPage.getByText('Payment successful')).toBeVisible();
  await expect(status).toHaveText(/^Paid: /);
  expect(await status.textContent()).not.toBe(`Paid: ${first}`);
  expect(problems).toEqual([]);
});
