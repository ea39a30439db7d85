// The README's Next.js section as an app (examples/next: the handler as a Route Handler, the
// basket's cookie set there, `rateLimit.clientAddress`, `PaymentWidget` from
// `payment-widget/react` in a client component and on the result page), built by `next build`
// from the packed package (installed from the tarball outside this checkout, React
// StrictMode on), started by `next start`, and paid through in Chromium: on a direct load and
// after a reload, after client-side navigation, and through the result page after a failed
// 3-D Secure, whose "Try another card" offers a card only. The browser console stays empty
// throughout (no hydration warning, no error), and onPaid runs once per paid checkout. Its
// Dutch page (app/nl, `locale="nl-NL"` and nothing else) shows Dutch labels: Next.js split
// the Dutch strings into a chunk by itself.
//
// Next.js and React come from examples/next's own lock. Set KEEP_RUNTIMES=1 to keep the app.
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { type Browser, chromium, type Page } from '@playwright/test';
// @ts-expect-error -- a plain .mjs helper shared with web-test-runner; it has no type declarations
import { chromiumArgs, headlessChromiumPath } from '../../scripts/browser.mjs';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.ts';
import { EXPIRY } from '../e2e/shop.ts';
import { installProject, packProject, ROOT } from '../shared/packed.ts';
import {
  answering,
  freePort,
  paidLines,
  providerSettings,
  type Running,
  showsDutch,
  start,
  webhookDelivered,
} from './support.ts';

const EXAMPLE = join(ROOT, 'examples/next');
/** What the route handler's onPaid prints: `paid: <reference> (checkout <id>)`. */
const PAID = /^paid: \S+ \(checkout (\S+)\)$/gm;
const quiet = { NEXT_TELEMETRY_DISABLED: '1' };

let workspace = '';
let app = '';
let origin = '';
let sandbox: Sandbox;
const sandboxLog: string[] = [];
let server: Running | undefined;
let browser: Browser;

before(async () => {
  workspace = mkdtempSync(join(tmpdir(), 'payment-widget-next-'));
  const { tarball } = packProject(workspace);
  app = join(workspace, 'next');
  for (const file of ['app', 'next.config.ts', 'tsconfig.json', 'package-lock.json']) {
    cpSync(join(EXAMPLE, file), join(app, file), { recursive: true });
  }
  // The test's own page: a link to the product page, for client-side navigation.
  mkdirSync(join(app, 'app/start'));
  writeFileSync(
    join(app, 'app/start/page.tsx'),
    `import Link from 'next/link';\n\nexport default function Start() {\n  return <main><Link href="/">To the mug</Link></main>;\n}\n`,
  );
  const example = JSON.parse(readFileSync(join(EXAMPLE, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
    devDependencies: Record<string, string>;
  };
  installProject(app, tarball, example);
  const next = join(app, 'node_modules/next/dist/bin/next');
  const built = start(process.execPath, [next, 'build'], { cwd: app, env: quiet });
  assert.equal(await built.exitCode(), 0, built.output());

  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  sandbox = await createSandbox({ port: 0, log: (line) => sandboxLog.push(line) });
  server = start(process.execPath, [next, 'start', '-H', '127.0.0.1', '-p', `${port}`], {
    cwd: app,
    env: { ...quiet, ...providerSettings(sandbox), SHOP_ORIGIN: origin },
  });
  await answering(`${origin}/`, server);
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
  else if (workspace) rmSync(workspace, { recursive: true, force: true });
});

/** A shopper of their own (a new basket), and what went wrong in their browser. */
async function shopper(): Promise<{ page: Page; problems: string[] }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') {
      problems.push(`${message.type()}: ${message.text()} (${message.location().url})`);
    }
  });
  page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`${response.status()} ${response.url()}`);
  });
  return { page, problems };
}

async function typeCard(page: Page, number: string): Promise<void> {
  await page.getByRole('radio', { name: 'Card' }).check();
  await page.getByLabel('Card number').fill(number);
  await page.getByLabel('Expiry date').fill(EXPIRY);
  await page.getByLabel('Security code').fill('123');
  await page.getByLabel('Name on card').fill('Ada Lovelace');
}

/** Pays by card on the product page; the id of the checkout the page names as paid. */
async function payOnProductPage(page: Page): Promise<string> {
  await typeCard(page, '4200000000000091');
  await page.getByRole('button', { name: 'Pay €12.50' }).click();
  await page.getByText('Payment successful').waitFor();
  const status = page.locator('main > p[role=status]');
  const id = /^Paid: (\S+)$/.exec((await status.textContent({ timeout: 10_000 })) ?? '')?.[1];
  assert.ok(id, 'the page names the paid checkout');
  return id;
}

async function paidOnce(id: string): Promise<void> {
  await webhookDelivered(sandbox, id, sandboxLog);
  assert.deepEqual(
    paidLines(server?.output() ?? '', PAID).filter((paid) => paid === id),
    [id],
  );
}

test('loaded directly and reloaded, the server-rendered page pays, its console quiet', async () => {
  const { page, problems } = await shopper();
  const html = await (await fetch(`${origin}/`)).text();
  // Rendered by the server: the element, with the attribute the reserve-height rule reads.
  assert.match(html, /<payment-widget payment-methods="card ideal bancontact"><\/payment-widget>/);
  await page.goto(`${origin}/`);
  await page.getByRole('button', { name: 'Pay €12.50' }).waitFor();
  await page.reload();
  // The basket's cookie: the reload shows the same checkout, and pays it.
  await page.getByRole('button', { name: 'Pay €12.50' }).waitFor();
  const id = await payOnProductPage(page);
  await paidOnce(id);
  // The basket is paid: the page shows it so, never a second form.
  await page.reload();
  await page.getByText('Payment successful').waitFor();
  assert.deepEqual(problems, []);
  await page.context().close();
});

test('reached by client-side navigation, the same page pays, its console quiet', async () => {
  const { page, problems } = await shopper();
  await page.goto(`${origin}/start`);
  await page.getByRole('link', { name: 'To the mug' }).click();
  await page.waitForURL(`${origin}/`);
  await page.getByRole('button', { name: 'Pay €12.50' }).waitFor();
  const id = await payOnProductPage(page);
  await paidOnce(id);
  assert.deepEqual(problems, []);
  await page.context().close();
});

test('after a failed 3-D Secure, the result page offers another card, a card only', async () => {
  const { page, problems } = await shopper();
  await page.goto(`${origin}/`);
  await page.getByRole('button', { name: 'Pay €12.50' }).waitFor();
  await typeCard(page, '4200000000000042');
  await page.getByRole('button', { name: 'Pay €12.50' }).click();
  // The bank's page (the sandbox's), then back through the handler's return route.
  await page.getByRole('button', { name: 'Fail authentication' }).click();
  await page.waitForURL(/\/result\?checkout_id=/);
  await page.getByText('Payment failed').waitFor();
  await page.getByRole('button', { name: 'Try another card' }).click();
  await page.getByRole('button', { name: 'Pay €12.50' }).waitFor();
  // The page named no methods, and the shopper asked for a card: no iDEAL, no Bancontact.
  assert.equal(await page.getByRole('radio').count(), 0);
  await page.getByLabel('Card number').fill('4200000000000091');
  await page.getByLabel('Expiry date').fill(EXPIRY);
  await page.getByLabel('Security code').fill('123');
  await page.getByLabel('Name on card').fill('Ada Lovelace');
  await page.getByRole('button', { name: 'Pay €12.50' }).click();
  await page.getByText('Payment successful').waitFor();
  assert.deepEqual(problems, []);
  await page.context().close();
});

test('in Dutch (app/nl: `locale="nl-NL"` and nothing else), the page shows Dutch labels', async () => {
  const { page, problems } = await shopper();
  await page.goto(`${origin}/nl`);
  // Next.js split the Dutch strings into a chunk of its own, which the widget loaded.
  await showsDutch(page, '12,50', problems);
  await page.context().close();
});
