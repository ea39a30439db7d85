// What the browser benches share: headless Chromium found as every runner finds
// it, and a shop on an origin that never resolves (Chromium's host-resolver rules
// map every name but loopback to nothing), whose page, widget script and backend
// are answered in-process by page.route, at once: the numbers are the widget's
// own work, never the network.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { type Browser, type BrowserContext, chromium } from 'playwright-core';
// @ts-expect-error -- a plain .mjs helper shared with web-test-runner; it has no type declarations
import { chromiumArgs, chromiumPath } from '../scripts/browser.mjs';

export const SHOP_ORIGIN = 'http://widget.bench.invalid';

/** The checkout the fake backend serves; the page's widget has checkout-id="chk_bench". */
export const CHECKOUT = {
  id: 'chk_bench',
  checkout_reference: 'bench-1',
  amount: 10,
  currency: 'EUR',
  merchant_code: 'MSANDBOX1',
  status: 'PENDING',
  date: '2026-01-01T00:00:00.000Z',
  transactions: [],
};
export const METHODS = {
  available_payment_methods: ['card', 'ideal', 'bancontact', 'blik', 'boleto'].map((id) => ({
    id,
  })),
};

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath() as string,
    args: chromiumArgs as string[],
    headless: true,
  });
}

/**
 * Answers every request of `context` to SHOP_ORIGIN: `/` with `page`,
 * `/payment-widget.iife.js` with the script-tag build at `iife` (when given) and
 * the parts and locales it loads from beside itself out of the same folder, and
 * the companion handler's checkout and payment-methods routes under `/payments`.
 */
export async function serveShop(
  context: BrowserContext,
  page: string,
  iife?: string,
): Promise<void> {
  const folder = iife && dirname(resolve(iife));
  await context.route(`${SHOP_ORIGIN}/**`, (route) => {
    const { pathname } = new URL(route.request().url());
    if (pathname === '/') return route.fulfill({ contentType: 'text/html', body: page });
    if (pathname === '/payments/checkouts/chk_bench') return route.fulfill({ json: CHECKOUT });
    if (pathname === '/payments/payment-methods') return route.fulfill({ json: METHODS });
    const file = folder && (pathname === '/payment-widget.iife.js' ? iife : join(folder, pathname));
    if (
      file &&
      pathname.endsWith('.js') &&
      resolve(file).startsWith(`${folder}/`) &&
      existsSync(file)
    ) {
      return route.fulfill({ contentType: 'text/javascript', body: readFileSync(file) });
    }
    return route.fulfill({
      status: 404,
      json: { error: { code: 'NOT_FOUND', message: pathname } },
    });
  });
}
