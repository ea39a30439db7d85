// The companion handler where merchants' backends run, each runtime started for real and
// serving the packed package (`npm pack`, installed from the tarball outside this
// checkout): Bun (`Bun.serve`), Deno (`Deno.serve`), Cloudflare's workerd (the handler
// as a Worker's fetch) and a Next.js App Router route handler (examples/next, paid in
// Chromium). Each pays a card checkout through a sandbox on a free port, and onPaid runs
// exactly once: each fixture prints a line per call, counted here once the provider's
// webhook has been answered (see webhookDelivered).
//
// And the widget where merchants' bundlers build it: the Next.js app's production build
// (its page in Dutch) and a Vite page's (fixtures/vite), each importing `payment-widget`
// with `locale="nl-NL"` and nothing else, show Dutch labels: the bundler found the Dutch
// strings by itself, with nothing copied and no path set.
//
// The runtimes come from npm (test/runtimes/package.json, installed by `npm test`); Next.js
// and React from examples/next's own lock. Set KEEP_RUNTIMES=1 to keep the projects.
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium, type Page } from '@playwright/test';
import { build } from 'esbuild';
// @ts-expect-error -- a plain .mjs helper shared with web-test-runner; it has no type declarations
import { chromiumArgs, chromiumPath } from '../../scripts/browser.mjs';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.ts';
import { toNodeListener } from '../../src/server/index.ts';
import { EXPIRY } from '../e2e/shop.ts';
import { installProject, packProject, ROOT, run } from '../shared/packed.ts';
import { createShop } from './fixtures/shop.ts';
import {
  answering,
  freePort,
  paidLines,
  payByCard,
  providerSettings,
  type Running,
  runtimeBinary,
  start,
  webhookDelivered,
} from './support.ts';

const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));
const NEXT_EXAMPLE = join(ROOT, 'examples/next');
/** `paid <id>`: what the fixtures' onPaid prints. */
const PAID = /^paid (\S+)$/gm;

let workspace = '';
let tarball = '';
/** The fixtures and the packed package, installed: what Bun, Deno and workerd run. */
let project = '';

before(() => {
  workspace = mkdtempSync(join(tmpdir(), 'payment-widget-runtimes-'));
  ({ tarball } = packProject(workspace));
  project = join(workspace, 'serve');
  cpSync(FIXTURES, project, { recursive: true });
  installProject(project, tarball, {});
});

after(() => {
  if (process.env.KEEP_RUNTIMES) console.log(`runtime projects kept in ${workspace}`);
  else if (workspace) rmSync(workspace, { recursive: true, force: true });
});

/** Chromium, as the other suites launch it. */
function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath() as string,
    args: chromiumArgs as string[],
  });
}

/**
 * `page` shows the widget in Dutch, read as a shopper reads it: its labels and the Pay
 * button with the amount written the Dutch way; and the console said nothing went wrong
 * (a locale that cannot load says so there).
 */
async function showsDutch(page: Page, amount: string, errors: string[]): Promise<void> {
  await page.getByRole('button', { name: new RegExp(`^Betaal €\\s${amount}$`) }).waitFor();
  for (const label of ['Kaartnummer', 'Vervaldatum', 'Beveiligingscode']) {
    await page.getByLabel(label).waitFor();
  }
  assert.deepEqual(errors, []);
}

/** The console's errors, and requests that failed, on `page` from now on. */
function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') errors.push(message.text());
  });
  page.on('requestfailed', (request) => errors.push(`failed: ${request.url()}`));
  return errors;
}

/** A sandbox on a free port that keeps its log (the webhook deliveries are read from it). */
async function sandboxWithLog(): Promise<{ sandbox: Sandbox; log: string[] }> {
  const log: string[] = [];
  const sandbox = await createSandbox({ port: 0, log: (line) => log.push(line) });
  return { sandbox, log };
}

/**
 * Serves the shop fixture on `port` with `launch`, pays a card checkout through its
 * `/payments` mount, and checks onPaid ran once for it.
 */
async function paysThrough(
  launch: (env: Record<string, string>) => Running | Promise<Running>,
  port: number,
): Promise<void> {
  const origin = `http://127.0.0.1:${port}`;
  const { sandbox, log } = await sandboxWithLog();
  let running: Running | undefined;
  try {
    running = await launch({ ...providerSettings(sandbox), SHOP_ORIGIN: origin, PORT: `${port}` });
    await answering(`${origin}/payments/checkouts/none`, running);
    const id = await payByCard(`${origin}/payments`, origin);
    await webhookDelivered(log, origin);
    assert.deepEqual(paidLines(running.output(), PAID), [id], running.output());
  } finally {
    await running?.stop();
    await sandbox.close();
  }
}

test('bun', async () => {
  const bun = runtimeBinary('bun', 'bun');
  await paysThrough((env) => start(bun, ['bun.ts'], { cwd: project, env }), await freePort());
});

test('deno', async () => {
  const deno = runtimeBinary('deno', 'deno');
  await paysThrough(
    (env) =>
      start(deno, ['run', '--allow-net=127.0.0.1', '--allow-env', '--allow-read=.', 'deno.ts'], {
        cwd: project,
        env: { ...env, DENO_NO_UPDATE_CHECK: '1' },
      }),
    await freePort(),
  );
});

test('workerd', async () => {
  const workerd = runtimeBinary('workerd', 'workerd');
  // Bundled as wrangler bundles a Worker: one ES module, the worker conditions first, and no
  // Node built-ins (no nodejs_compat flag).
  await build({
    entryPoints: [join(project, 'worker.ts')],
    absWorkingDir: project,
    outfile: join(project, 'worker.js'),
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    conditions: ['workerd', 'worker', 'browser'],
    mainFields: ['browser', 'module', 'main'],
    logLevel: 'silent',
  });
  const port = await freePort();
  await paysThrough((env) => {
    const bindings = Object.entries(env)
      .map(([name, value]) => `(name = ${JSON.stringify(name)}, text = ${JSON.stringify(value)})`)
      .join(', ');
    // The sandbox is on 127.0.0.1, which a Worker may not reach by default: its outbound
    // requests go through a network service that allows private and local addresses.
    writeFileSync(
      join(project, 'worker.capnp'),
      `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [
    (name = "shop", worker = .shop),
    (name = "loopback", network = (allow = ["private", "local"])),
  ],
  sockets = [(name = "http", address = "127.0.0.1:${port}", http = (), service = "shop")],
);
const shop :Workerd.Worker = (
  modules = [(name = "worker.js", esModule = embed "worker.js")],
  compatibilityDate = "2025-09-01",
  bindings = [${bindings}],
  globalOutbound = "loopback",
);
`,
    );
    return start(workerd, ['serve', 'worker.capnp'], { cwd: project, env: {} });
  }, port);
});

test('next', { timeout: 15 * 60_000 }, async () => {
  const app = join(workspace, 'next');
  for (const file of ['app', 'next.config.ts', 'tsconfig.json', 'package-lock.json']) {
    cpSync(join(NEXT_EXAMPLE, file), join(app, file), { recursive: true });
  }
  const example = JSON.parse(readFileSync(join(NEXT_EXAMPLE, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
    devDependencies: Record<string, string>;
    scripts: Record<string, string>;
  };
  installProject(app, tarball, example);
  const next = [join(app, 'node_modules/next/dist/bin/next')];
  const quiet = { NEXT_TELEMETRY_DISABLED: '1' };

  const built = start(process.execPath, [...next, 'build'], { cwd: app, env: quiet });
  assert.equal(await built.exitCode(), 0, built.output());

  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const { sandbox, log } = await sandboxWithLog();
  const server = start(process.execPath, [...next, 'start', '-H', '127.0.0.1', '-p', `${port}`], {
    cwd: app,
    env: { ...quiet, ...providerSettings(sandbox), SHOP_ORIGIN: origin },
  });
  const browser = await launchChromium();
  try {
    await answering(`${origin}/`, server);
    const page = await browser.newPage();
    await page.goto(`${origin}/`);
    // The order names the product; the route handler prices it (12.50 EUR).
    await page.getByRole('button', { name: 'Pay €12.50' }).waitFor();
    await page.getByRole('radio', { name: 'Card' }).check();
    await page.getByLabel('Card number').fill('4200000000000091');
    await page.getByLabel('Expiry date').fill(EXPIRY);
    await page.getByLabel('Security code').fill('123');
    await page.getByLabel('Name on card').fill('Ada Lovelace');
    await page.getByRole('button', { name: 'Pay €12.50' }).click();
    await page.getByText('Payment successful').waitFor();
    const status = page.getByRole('status').filter({ hasText: /^Order paid/ });
    const id = /\(checkout (\S+)\)/.exec(
      (await status.textContent({ timeout: 10_000 })) ?? '',
    )?.[1];
    assert.ok(id, 'the page names the paid checkout');
    await webhookDelivered(log, origin);
    assert.deepEqual(paidLines(server.output(), /^order paid \(checkout (\S+)\)$/gm), [id]);

    // The same checkout in Dutch (app/nl/page.tsx): `locale="nl-NL"` and nothing else.
    const dutch = await browser.newPage();
    const errors = watchErrors(dutch);
    await dutch.goto(`${origin}/nl`);
    await showsDutch(dutch, '12,50', errors);
  } finally {
    await browser.close();
    await server.stop();
    await sandbox.close();
  }
});

/** The files of a built site, as a static server sends them. */
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

test('vite', { timeout: 10 * 60_000 }, async () => {
  // The page inside the project that holds the packed package (fixtures/vite, copied there
  // by before()): it imports `payment-widget` from there. Vite is the repository's own.
  const site = join(project, 'vite');
  const built = run(process.execPath, [join(ROOT, 'node_modules/vite/bin/vite.js'), 'build'], site);
  assert.equal(built.status, 0, built.output);
  const dist = join(site, 'dist');

  // The built page beside the companion handler at /payments, as a merchant serves them.
  const { sandbox } = await sandboxWithLog();
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const settings: Record<string, string> = { ...providerSettings(sandbox), SHOP_ORIGIN: origin };
  const payments = toNodeListener(createShop((name) => settings[name]));
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', origin).pathname;
    if (path.startsWith('/payments/')) return void payments(request, response);
    const file = normalize(join(dist, path === '/' ? 'index.html' : path));
    try {
      const body = readFileSync(file.startsWith(dist) ? file : join(dist, 'missing'));
      response.writeHead(200, {
        'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
      });
      response.end(body);
    } catch {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    const errors = watchErrors(page);
    await page.goto(`${origin}/`);
    await showsDutch(page, '10,00', errors);
    // Vite split the Dutch strings into a file of their own, which the page fetched.
    const files = readdirSync(join(dist, 'assets'));
    assert.ok(
      files.some((name) => /^nl-[\w-]+\.js$/.test(name)),
      files.join(' '),
    );
  } finally {
    await browser.close();
    await new Promise((resolve) => server.close(resolve));
    await sandbox.close();
  }
});
