// Screenshots of <payment-widget> for docs/screenshots/: the script-tag build on a
// static page served under a strict CSP (no 'unsafe-inline' for scripts or
// styles), with a fake companion handler, in light and dark at 320 and 480 px.
//
//   node --import tsx scripts/screenshots.ts
//
// It builds the IIFE into a temporary folder first, so it needs no earlier
// `npm run build`, and fails when the page reports a CSP violation or scrolls
// sideways.

import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Page, type Route } from 'playwright-core';
import { build } from 'vite';
// @ts-expect-error -- a plain .mjs helper shared with the test runners; it has no type declarations
import { chromiumArgs, chromiumPath } from './browser.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const outDir = join(root, 'docs/screenshots');
const ORIGIN = 'http://127.0.0.1:9';
const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; frame-src 'self'";

const PAGE = `<!doctype html>
<html lang="en-GB">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>payment-widget</title>
<link rel="stylesheet" href="/page.css">
<script src="/watch-csp.js"></script>
<script src="/payment-widget.iife.js"></script>
</head>
<body>
<main>
<h1>Checkout</h1>
<payment-widget checkout-id="chk_demo" show-email></payment-widget>
</main>
</body>
</html>`;

const PAGE_CSS = `
:root { color-scheme: light dark; font-family: system-ui, sans-serif; }
body { margin: 0; background: Canvas; color: CanvasText; }
main { padding: 16px; }
h1 { font-size: 1.25rem; margin: 0 0 12px; }
`;

// An external script (inline ones are what the CSP forbids): records violations.
const WATCH_CSP = `
window.cspViolations = [];
document.addEventListener('securitypolicyviolation', (e) => {
  window.cspViolations.push(e.violatedDirective + ' ' + (e.blockedURI || 'inline'));
});
`;

type State = 'form' | 'errors' | 'success';

function fakeBackend(): (route: Route) => Promise<void> {
  let checkout = {
    id: 'chk_demo',
    status: 'PENDING',
    amount: 10,
    currency: 'EUR',
    checkout_reference: 'order-42',
  };
  return async (route) => {
    const request = route.request();
    const path = new URL(request.url()).pathname.replace(/^\/payments/, '');
    const json = (status: number, body: unknown) =>
      route.fulfill({ status, contentType: 'application/json', body: JSON.stringify(body) });
    if (path === '/payment-methods') {
      return json(200, {
        available_payment_methods: [{ id: 'card' }, { id: 'ideal' }, { id: 'boleto' }],
      });
    }
    if (path === '/checkouts/chk_demo' && request.method() === 'PUT') {
      checkout = { ...checkout, status: 'PAID' };
      return json(200, checkout);
    }
    if (path === '/checkouts/chk_demo') return json(200, checkout);
    return json(404, { error: { code: 'NOT_FOUND', message: path } });
  };
}

async function serve(page: Page, iife: string): Promise<void> {
  const headers = { 'content-security-policy': CSP };
  await page.route(`${ORIGIN}/**`, (route) => {
    const { pathname } = new URL(route.request().url());
    if (pathname === '/') return route.fulfill({ contentType: 'text/html', headers, body: PAGE });
    if (pathname === '/page.css') return route.fulfill({ contentType: 'text/css', body: PAGE_CSS });
    if (pathname === '/watch-csp.js') {
      return route.fulfill({ contentType: 'text/javascript', body: WATCH_CSP });
    }
    if (pathname === '/payment-widget.iife.js') {
      return route.fulfill({ contentType: 'text/javascript', body: iife });
    }
    return route.fulfill({ status: 404, body: 'not found' });
  });
  await page.route(`${ORIGIN}/payments/**`, fakeBackend());
}

async function show(page: Page, state: State): Promise<void> {
  await page.goto(`${ORIGIN}/`);
  await page.locator('payment-widget button[part~=button]').waitFor();
  if (state === 'errors') {
    await page.locator('payment-widget #number').fill('4200 0000 0000');
    await page.locator('payment-widget button[part~=button]').click();
    await page.locator('payment-widget [aria-invalid=true]').first().waitFor();
  } else {
    await page.locator('payment-widget #number').pressSequentially('4200000000000091');
    await page.locator('payment-widget #expiry').pressSequentially('1234');
    await page.locator('payment-widget #cvv').fill('123');
    await page.locator('payment-widget #name').fill('Ada Lovelace');
    await page.locator('payment-widget #email').fill('ada@example.com');
    if (state === 'success') {
      await page.locator('payment-widget button[part~=button]').click();
      await page.getByText('Payment successful').waitFor();
    }
  }
  // Let the caret blink and focus rings settle the same way on every run.
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
}

async function main(): Promise<void> {
  const tmp = mkdtempSync(join(tmpdir(), 'payment-widget-shots-'));
  try {
    await build({
      root,
      configFile: join(root, 'vite.config.ts'),
      logLevel: 'error',
      build: { outDir: tmp, emptyOutDir: true },
    });
    const iife = readFileSync(join(tmp, 'payment-widget.iife.js'), 'utf8');
    mkdirSync(outDir, { recursive: true });
    const browser = await chromium.launch({ executablePath: chromiumPath(), args: chromiumArgs });
    const problems: string[] = [];
    try {
      for (const scheme of ['light', 'dark'] as const) {
        for (const width of [320, 480]) {
          const context = await browser.newContext({
            viewport: { width, height: 900 },
            colorScheme: scheme,
            deviceScaleFactor: 2,
          });
          const page = await context.newPage();
          await serve(page, iife);
          for (const state of ['form', 'errors', 'success'] as const) {
            await show(page, state);
            const file = join(outDir, `widget-${state}-${scheme}-${width}.png`);
            await page.locator('main').screenshot({ path: file });
            const sideways = await page.evaluate(
              () => document.documentElement.scrollWidth > window.innerWidth,
            );
            if (sideways) problems.push(`${file}: scrolls sideways at ${width} px`);
            const violations = await page.evaluate(
              () => (window as unknown as { cspViolations: string[] }).cspViolations,
            );
            for (const v of violations) problems.push(`${file}: CSP violation ${v}`);
            console.log(`wrote ${file}`);
          }
          await context.close();
        }
      }
    } finally {
      await browser.close();
    }
    if (problems.length > 0) {
      console.error(problems.join('\n'));
      process.exitCode = 1;
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

await main();
