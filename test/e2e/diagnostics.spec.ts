/**
 * The browser console tells a page's developer what is wrong with the page, once each:
 * `console.error` for what stops a payment (the endpoint answers 404, or the handler
 * refuses the page's origin with 403: the URL called and the handler's own message), and
 * `console.warn` for what the widget ignores (an unknown name in `payment-methods`, an
 * `order` attribute that looks like JSON and does not parse, an unknown `challenge`). A
 * shop of its own here (the built script tag, and a real handler that admits no page of
 * this origin under /elsewhere), on a sandbox; console.spec.ts shows the demo's pages
 * say nothing at all.
 */
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { Page } from '@playwright/test';
import type { PaymentWidget } from '../../src/index.ts';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.ts';
import { createPaymentHandler, toNodeListener } from '../../src/server/index.ts';
import { CARDS, expect, fillCard, pay, type Quiet, test } from './fixtures.ts';

let sandbox: Sandbox;
let server: Server;
let origin = '';

test.beforeAll(async () => {
  sandbox = await createSandbox({ port: 0 });
  server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  origin = `http://127.0.0.1:${port}`;
  const handler = (allowed: string, basePath: string) =>
    createPaymentHandler({
      provider: {
        baseUrl: sandbox.url,
        apiKey: sandbox.apiKey,
        merchantCode: sandbox.merchantCode,
      },
      basePath,
      publicUrl: `${origin}${basePath}`,
      allowedOrigins: [allowed],
      resultPages: { success: '/', failure: '/' },
      resolveCheckout: () => ({ amount: 10, currency: 'EUR', redirect: false }),
      logger: () => {},
    });
  const payments = handler(origin, '/payments');
  // Mounted right, but admitting another shop's pages only.
  const elsewhere = handler('https://elsewhere.example', '/elsewhere');
  server.on(
    'request',
    toNodeListener(async (request) => {
      const { pathname } = new URL(request.url);
      if (pathname.startsWith('/payments/')) return payments(request);
      if (pathname.startsWith('/elsewhere/')) return elsewhere(request);
      if (pathname.startsWith('/assets/')) {
        const file = new URL(`../../dist/${pathname.slice(8)}`, import.meta.url);
        try {
          return new Response(await readFile(file), {
            headers: { 'content-type': 'text/javascript' },
          });
        } catch {
          return new Response('Not found', { status: 404 });
        }
      }
      return new Response('Not found', { status: 404, statusText: 'Not Found' });
    }),
  );
});

test.afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await sandbox?.close();
});

/** What the widget said in the console: `error: payment-widget: ...`. */
async function open(page: Page, attributes: string): Promise<string[]> {
  const said: string[] = [];
  page.on('console', (message) => {
    if (message.text().startsWith('payment-widget'))
      said.push(`${message.type()}: ${message.text()}`);
  });
  await page.route(`${origin}/shop`, (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: `<!doctype html><html lang="en"><title>Shop</title><body>
<script src="/assets/payment-widget.iife.js"></script>
<payment-widget ${attributes}></payment-widget></body></html>`,
    }),
  );
  await page.goto(`${origin}/shop`);
  return said;
}

/**
 * Resolves once the widget has nothing left to say about what it did so far: the page's
 * network idle (no call for half a second: a second call would be a second chance to tell),
 * then every console message it logged until now received here (a marker logged last, and
 * seen: the console's messages arrive in order).
 */
async function heardAll(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle');
  const marker = `heard all ${Math.random()}`;
  const seen = page.waitForEvent('console', (message) => message.text() === marker);
  await page.evaluate((text) => console.log(text), marker);
  await seen;
}

/** What a test that makes a page's mistake on purpose expects the console to say. */
function expectTold(quiet: Quiet, failedStatus?: number): void {
  quiet.allow(/^(error|warning): payment-widget: /);
  // The browser's own line for the answer the widget is told of.
  if (failedStatus) {
    quiet.allow(new RegExp(`^error: Failed to load resource: .* status of ${failedStatus} `));
  }
}

test('an endpoint where no handler answers: one error naming the URL called', async ({
  page,
  quiet,
}) => {
  expectTold(quiet, 404);
  const said = await open(page, `order='{"sku":"poster"}' endpoint="/nope"`);
  await expect(page.getByText('The payment could not be processed.')).toBeVisible();
  // The same problem again (the same URL called): not told twice.
  const again = page.waitForResponse(`${origin}/nope/checkouts`);
  await page.locator('payment-widget').evaluate((el: PaymentWidget) => {
    el.endpoint = '/nope/';
  });
  await again;
  await expect(page.getByText('The payment could not be processed.')).toBeVisible();
  // Another URL after it: told, and after whatever the repeat would have said.
  await page.locator('payment-widget').evaluate((el: PaymentWidget) => {
    el.endpoint = '/elsewhere-nope';
  });
  await expect.poll(() => said.at(-1) ?? '').toContain(`${origin}/elsewhere-nope/checkouts`);
  expect(said).toHaveLength(2);
  expect(said[0]).toMatch(
    new RegExp(
      `^error: payment-widget: POST ${origin}/nope/checkouts answered 404: Not Found\\. .*\`endpoint\``,
    ),
  );
});

test('a handler that refuses the page’s origin: one error with the handler’s message', async ({
  page,
  quiet,
}) => {
  expectTold(quiet, 403);
  const said = await open(page, `order='{"sku":"poster"}' endpoint="/elsewhere"`);
  await expect(page.getByText('The payment could not be processed.')).toBeVisible();
  await heardAll(page);
  expect(said).toHaveLength(1);
  expect(said[0]).toMatch(
    new RegExp(
      `^error: payment-widget: POST ${origin}/elsewhere/checkouts answered 403: .*${origin}.*allowedOrigins`,
    ),
  );
});

test('what the widget ignores: one warning each, and the card still pays', async ({
  page,
  quiet,
}) => {
  expectTold(quiet);
  const said = await open(
    page,
    `order='{"sku": poster}' payment-methods="card idael" challenge="popup"`,
  );
  await expect(page.getByRole('button', { name: 'Pay €10.00' })).toBeEnabled();
  await fillCard(page, CARDS.paid);
  await pay(page);
  await expect(page.getByText('Payment successful')).toBeVisible();
  await heardAll(page);
  expect(said.sort()).toEqual([
    expect.stringMatching(
      /^warning: payment-widget: challenge="popup" is not auto, iframe or redirect/,
    ),
    expect.stringMatching(
      /^warning: payment-widget: payment-methods="card idael": idael is not a payment method/,
    ),
    expect.stringMatching(
      /^warning: payment-widget: the order attribute \{"sku": poster\} looks like JSON but does not parse/,
    ),
  ]);
});

test('a correct page says nothing', async ({ page }) => {
  const said = await open(
    page,
    `order='{"sku":"poster"}' payment-methods="card" challenge="iframe"`,
  );
  await expect(page.getByRole('button', { name: 'Pay €10.00' })).toBeEnabled();
  await fillCard(page, CARDS.paid);
  await pay(page);
  await expect(page.getByText('Payment successful')).toBeVisible();
  await heardAll(page);
  expect(said).toEqual([]);
});
