/**
 * A merchant's developer's first hour, as the README tells it: a new shop outside the
 * repository, from the packed package and the README's own snippets (its TypeScript backend
 * compiled under strict, exactOptionalPropertyTypes and noUncheckedIndexedAccess, its page
 * with the script tag and the height rule), run beside a sandbox; a shopper on a phone pays
 * a card on a product page, and the page does not move while the widget loads, then buys the
 * same product again ("Buy again": a new basket); another whose bank refuses 3DS
 * on its own page is told so on the backend's result page, and pays with another card.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.ts';
import { installProject, packProject, ROOT, run } from '../shared/packed.ts';
import { scaled } from '../shared/until.ts';
import { CARDS, expect, fillCard, pay, test } from './fixtures.ts';
import { freePort } from './processes.ts';

const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const devVersion = (name: string) =>
  (JSON.parse(read(`node_modules/${name}/package.json`)) as { version: string }).version;

const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    lib: ['ES2022', 'DOM'],
    types: ['node'],
    strict: true,
    exactOptionalPropertyTypes: true,
    noUncheckedIndexedAccess: true,
    skipLibCheck: true,
    outDir: 'build',
  },
  files: ['backend.ts'],
};

/** The README's page: its height rule (inline, or the shop's stylesheet file), and its script-tag snippet. */
const page = (style: string) => `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Poster</title>
    ${style}
  </head>
  <body>
    <h1>Poster</h1>
    ${read('docs/README-snippets/script-tag.html')}
    <p>Terms, then the order summary: nothing here may move.</p>
  </body>
</html>
`;

let workspace = '';
let sandbox: Sandbox | undefined;
let backend: ChildProcess | undefined;

test.afterAll(async () => {
  backend?.kill('SIGTERM');
  await sandbox?.close();
  if (workspace) rmSync(workspace, { recursive: true, force: true });
});

test('a shop from the packed package and the README pays a card, the page never moving at 390 px; a 3DS refused on the bank page ends on its result page, where another card pays', async ({
  browser,
}) => {
  test.setTimeout(scaled(180_000));
  workspace = mkdtempSync(join(tmpdir(), 'payment-widget-first-hour-'));
  const { tarball } = packProject(workspace);
  const shop = join(workspace, 'shop');
  mkdirSync(join(shop, 'public'), { recursive: true });
  writeFileSync(join(shop, 'backend.ts'), read('docs/README-snippets/backend.ts'));
  // The shop's home page, and a product page beside it: each one a shopper may pay on. The
  // product page takes the height rule from a file, as a built app's pages (Vite's) do: the
  // browser applies a stylesheet only when the backend serves it as text/css.
  const heightRule = read('docs/README-snippets/reserve-height.css');
  writeFileSync(join(shop, 'public/index.html'), page(`<style>${heightRule}</style>`));
  writeFileSync(join(shop, 'public/shop.css'), heightRule);
  writeFileSync(
    join(shop, 'public/poster.html'),
    page('<link rel="stylesheet" href="/shop.css" />'),
  );
  writeFileSync(join(shop, 'tsconfig.json'), JSON.stringify(TSCONFIG, null, 2));
  installProject(shop, tarball, {
    devDependencies: {
      typescript: devVersion('typescript5'),
      '@types/node': devVersion('@types/node'),
    },
  });

  const compiled = run('node', ['node_modules/typescript/bin/tsc', '-p', '.'], shop);
  expect(compiled.output, 'the README backend compiles under strict settings').toBe('');
  expect(compiled.status).toBe(0);

  sandbox = await createSandbox({ port: 0 });
  const port = await freePort();
  const child = spawn(process.execPath, ['build/backend.js'], {
    cwd: shop,
    env: {
      ...process.env,
      PORT: String(port),
      PROVIDER_BASE_URL: sandbox.url,
      PROVIDER_API_KEY: sandbox.apiKey,
      MERCHANT_CODE: sandbox.merchantCode,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  backend = child;
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('listening on')) resolve();
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`the shop exited with ${code}:\n${output}`)));
  });

  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    hasTouch: true,
    isMobile: true,
  });
  try {
    const page = await context.newPage();
    await page.addInitScript(() => {
      const w = window as unknown as { shifted: number };
      w.shifted = 0;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as (PerformanceEntry & {
          value: number;
          hadRecentInput: boolean;
        })[]) {
          if (!entry.hadRecentInput) w.shifted += entry.value;
        }
      }).observe({ type: 'layout-shift', buffered: true });
    });
    await page.goto(`http://127.0.0.1:${port}/poster.html`);
    await expect(page.getByRole('button', { name: 'Pay €10.00' })).toBeEnabled();
    // The browser refuses a stylesheet served as anything but text/css: it keeps none of its rules.
    const rules = await page.evaluate(() => document.styleSheets[0]?.cssRules.length);
    expect(rules, 'the rules of /shop.css, which the README backend serves').toBeGreaterThan(0);
    const shifted = await page.evaluate(
      () =>
        new Promise<number>((resolve) =>
          requestAnimationFrame(() =>
            requestAnimationFrame(() =>
              resolve((window as unknown as { shifted: number }).shifted),
            ),
          ),
        ),
    );
    console.log(
      `first hour: layout shift while the widget loaded at 390 px: ${shifted.toFixed(4)}`,
    );
    expect(shifted).toBe(0);

    await fillCard(page, CARDS.paid);
    await pay(page);
    await expect(page.getByText('Payment successful')).toBeVisible();
    await expect(page.getByText('Thank you for your order!')).toBeVisible();
    await expect.poll(() => output).toMatch(/paid: order-[\w-]+ \(checkout [\w-]+\)/);

    // A reload: the basket's paid order (the product page gave the shopper one), never a new
    // payment.
    await page.reload();
    await expect(page.getByText('Payment successful')).toBeVisible();
    await expect(page.getByRole('button', { name: /^Pay / })).toHaveCount(0);

    // The shopper's next order of the same poster, deliberately: "Buy again" on the reloaded
    // page starts a new basket, whose checkout is a new one to pay (before, the page offered
    // none: "Payment successful" for the first order until the cookies were cleared).
    await expect(page.getByText('Thank you for your order!')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Buy again' })).toBeVisible();
    await page.getByRole('button', { name: 'Buy again' }).click();
    await expect(page.getByRole('button', { name: 'Pay €10.00' })).toBeEnabled();
    await expect(page.getByText('Thank you for your order!')).toBeHidden();
    // A second tab finds that same new checkout: paid in one tab, paid in both.
    const tab = await context.newPage();
    await tab.goto(`http://127.0.0.1:${port}/poster.html`);
    await expect(tab.getByRole('button', { name: 'Pay €10.00' })).toBeEnabled();
    await fillCard(page, CARDS.paid);
    await pay(page);
    await expect(page.getByText('Payment successful')).toBeVisible();
    await expect.poll(() => output.match(/paid: order-/g)?.length).toBe(2);
    const [first, second] = [...output.matchAll(/paid: (order-[\w-]+) \(checkout ([\w-]+)\)/g)];
    expect(second?.[1], 'a new basket: a new reference').not.toBe(first?.[1]);
    expect(second?.[2], 'a new checkout').not.toBe(first?.[2]);
    await tab.reload();
    await expect(tab.getByText('Payment successful')).toBeVisible();
    await expect(tab.getByRole('button', { name: /^Pay / })).toHaveCount(0);
    await page.reload();
    await expect(page.getByText('Payment successful')).toBeVisible();
  } finally {
    await context.close();
  }

  // Another shopper, in the dark scheme, whose bank refuses the 3DS challenge on its own page:
  // back on the README's result page, the widget says so and why, and another card pays.
  const other = await browser.newContext({
    viewport: { width: 390, height: 844 },
    colorScheme: 'dark',
  });
  try {
    const page = await other.newPage();
    await page.goto(`http://127.0.0.1:${port}/`);
    await fillCard(page, CARDS.challenge);
    await pay(page);
    await page.getByRole('button', { name: 'Fail authentication' }).click();
    await expect(page).toHaveURL(/\/result\?checkout_id=[\w-]+$/);
    await expect(page.getByText('Payment failed')).toBeVisible();
    await expect(page.getByText('Authentication failed')).toBeVisible();
    // The widget is dark for this shopper; so is the page around it (light text on the dark
    // canvas), not the widget's pale text on a white page.
    expect(await page.evaluate(() => getComputedStyle(document.body).color)).toBe(
      'rgb(255, 255, 255)',
    );
    await page.getByRole('button', { name: 'Try another card' }).click();
    await fillCard(page, CARDS.paid);
    await pay(page);
    await expect(page.getByText('Payment successful')).toBeVisible();
    await expect.poll(() => output.match(/paid: order-/g)?.length).toBe(3);
  } finally {
    await other.close();
  }
});
