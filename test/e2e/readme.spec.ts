/**
 * The README's code: every block marked `<!-- snippet: path -->` must be that
 * file verbatim, and each such file runs here (or in frameworks.spec.ts for the
 * React and Vue pages; the typed npm snippets are type-checked against the
 * packed package by test/consumer). Also `npm start`'s script: it serves and
 * stops on Ctrl-C.
 */
import { existsSync, readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.ts';
import { CARDS, expect, fillCard, pay, test } from './fixtures.ts';
import { exitCode, freePort, run } from './processes.ts';

const ROOT = new URL('../../', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, ROOT), 'utf8');
const SNIPPET_PAGE = `<!doctype html><html lang="en"><title>Shop</title><body>${read('docs/README-snippets/script-tag.html')}</body></html>`;

/** Shell lines CI runs (.ci/run, npm test) or this file runs (npm start's script). */
const CI_COMMANDS = [
  'npm install',
  // What the consumer and first-hour tests do with the packed package.
  'npm install payment-widget',
  'npm ci',
  'npm start',
  'npm test',
  'npm run build',
  'npm --prefix examples ci',
  'npm --prefix examples run build',
  // scripts/test.mjs's build and screenshots steps, which npm test runs, writing the baselines.
  'npm run screenshots',
  'npm run screenshots -- --engine firefox',
];

test('every code block of the README and the guides is a tested snippet, a command CI runs, or a diagram', () => {
  const docs = ['README.md', 'CONTRIBUTING.md', 'docs/sandbox.md', 'docs/spa.md'];
  let snippets = 0;
  for (const doc of docs) {
    const text = read(doc);
    const fence = /(?:<!-- snippet: (\S+) -->\n)?```(\w*)\n([\s\S]*?)```/g;
    for (const [, path, lang, block = ''] of text.matchAll(fence)) {
      if (path !== undefined) {
        expect(block, `${doc}: the block for ${path}`).toBe(read(path));
        snippets += 1;
      } else if (lang === 'sh') {
        for (const line of block.split('\n').filter((l) => l.trim() !== '')) {
          const command = line.replace(/\s+#.*$/, '').trim();
          expect(CI_COMMANDS, `${doc}: "${command}" is not a command CI runs`).toContain(command);
        }
      } else {
        expect(lang, `${doc}: a \`${lang}\` block that no test runs`).toBe('mermaid');
      }
    }
  }
  expect(snippets).toBeGreaterThanOrEqual(4);
});

test.describe('the README backend and script-tag snippets', () => {
  let sandbox: Sandbox;
  test.beforeAll(async () => {
    sandbox = await createSandbox({ port: 0 });
  });
  test.afterAll(async () => {
    await sandbox.close();
  });

  /**
   * The README's backend.mjs on the sandbox, and its origin serving the script-tag snippet's
   * page at /shop.html and the built widget at /assets/, as a shop serves them.
   */
  async function snippetShop(page: Page) {
    expect(
      existsSync(new URL('dist/node/server.js', ROOT)),
      'payment-widget/server is not built: run `npm run build`',
    ).toBe(true);
    const port = await freePort();
    const backend = await run(
      ['docs/README-snippets/backend.mjs'],
      {
        PORT: String(port),
        PROVIDER_BASE_URL: sandbox.url,
        PROVIDER_API_KEY: sandbox.apiKey,
        MERCHANT_CODE: sandbox.merchantCode,
      },
      /listening on (\S+)/,
    );
    const origin = backend.match[1] ?? '';
    // The snippet page, served from the backend's origin like the shop's own page.
    await page.route(`${origin}/shop.html`, (route) =>
      route.fulfill({ contentType: 'text/html', body: SNIPPET_PAGE }),
    );
    // The widget's files, as the backend serves them from node_modules/payment-widget/dist
    // in a shop: the bundle, and the parts and locales it loads from beside it.
    await page.route(`${origin}/assets/**`, (route) =>
      route.fulfill({
        contentType: 'text/javascript',
        path: `dist/${new URL(route.request().url()).pathname.slice('/assets/'.length)}`,
      }),
    );
    return { origin, backend };
  }

  test('take a card payment, priced by the server', async ({ page }) => {
    const { origin, backend } = await snippetShop(page);
    try {
      await page.goto(`${origin}/shop.html`);
      await expect(page.getByRole('button', { name: 'Pay €10.00' })).toBeEnabled();
      await page.getByRole('radio', { name: 'Card' }).check();
      await fillCard(page, CARDS.paid);
      await pay(page);
      await expect(page.getByText('Payment successful')).toBeVisible();
      await expect(page.getByText('Thank you for your order!')).toBeVisible();
      await expect.poll(backend.output).toMatch(/paid: [\w-]+/);

      // A tampered order cannot change the price; an unknown product is a 400 naming the field.
      const create = (order: unknown) =>
        fetch(`${origin}/payments/checkouts`, {
          method: 'POST',
          headers: { origin, 'content-type': 'application/json' },
          body: JSON.stringify({ order, amount: 0.01 }),
        });
      const tampered = await create({ sku: 'poster', amount: 0.01, currency: 'USD' });
      expect(tampered.status).toBe(201);
      expect(await tampered.json()).toMatchObject({ amount: 10, currency: 'EUR' });
      // So are the names every object inherits and a sku that is not a string (they were
      // a 500: the price found was Object.prototype's, or String() threw).
      for (const sku of [
        'yacht',
        'toString',
        '__proto__',
        'constructor',
        { toString: 1 },
        ['poster'],
      ]) {
        const unknown = await create({ sku });
        expect(unknown.status, JSON.stringify(sku)).toBe(400);
        expect(await unknown.json()).toMatchObject({ error: { field: 'order.sku' } });
      }
    } finally {
      backend.child.kill('SIGTERM');
    }
  });

  test('the snippet page swapped for another mid-payment, as Turbo Drive and htmx hx-boost swap pages, shows no thanks on the page that came next, and the order is still fulfilled', async ({
    page,
  }) => {
    const { origin, backend } = await snippetShop(page);
    try {
      await page.goto(`${origin}/shop.html`);
      await page.getByRole('radio', { name: 'Card' }).check();
      await fillCard(page, CARDS.paid);
      // The payment's answer is held until the shopper has moved on.
      let movedOn = () => {};
      const held = new Promise<void>((resolve) => {
        movedOn = resolve;
      });
      await page.route(`${origin}/payments/checkouts/*`, async (route) => {
        if (route.request().method() === 'PUT') await held;
        await route.continue();
      });
      const paying = page.waitForRequest((request) => request.method() === 'PUT');
      await pay(page);
      await paying;
      // The next page (the same snippet: another product's checkout) as Turbo Drive and
      // hx-boost show it: its body in place of this one, its scripts run again.
      await page.evaluate((html) => {
        const body = new DOMParser().parseFromString(html, 'text/html').body;
        document.body.replaceWith(body);
        for (const inert of body.querySelectorAll('script')) {
          const script = document.createElement('script');
          for (const { name, value } of inert.attributes) script.setAttribute(name, value);
          script.textContent = inert.textContent;
          inert.replaceWith(script);
        }
      }, SNIPPET_PAGE);
      await expect(page.getByRole('button', { name: 'Pay €10.00' })).toBeEnabled();
      movedOn();
      // The payment goes on at the provider, and the order is fulfilled...
      await expect.poll(backend.output).toMatch(/paid: [\w-]+/);
      // ...while the page that came next shows its own form and no thanks: the widget left
      // behind shows and says nothing (docs/spa.md).
      await expect(page.locator('#thanks')).toBeHidden();
      await expect(page.getByRole('button', { name: 'Pay €10.00' })).toBeEnabled();
    } finally {
      backend.child.kill('SIGTERM');
    }
  });
});

test('scripts/start.ts serves the shop, prints its URL and stops on Ctrl-C', async () => {
  const [sandboxPort, port] = [await freePort(), await freePort()];
  const started = await run(
    ['--import', 'tsx', 'scripts/start.ts'],
    { SANDBOX_PORT: String(sandboxPort), PORT: String(port) },
    /^(http:\/\/127\.0\.0\.1:\d+\/)$/m,
  );
  expect(started.match[1]).toBe(`http://127.0.0.1:${port}/`);
  const home = await fetch(started.match[1] ?? '');
  expect(home.status).toBe(200);
  expect(await home.text()).toContain('<payment-widget order="');
  started.child.kill('SIGINT');
  expect(await exitCode(started.child)).toBe(0);
  // Both ports are free again.
  await expect(fetch(`http://127.0.0.1:${sandboxPort}/`)).rejects.toThrow();
  await expect(fetch(started.match[1] ?? '')).rejects.toThrow();
});
