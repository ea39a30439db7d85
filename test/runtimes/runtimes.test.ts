// The companion handler where merchants' backends run, each runtime started for real and
// serving the packed package (`npm pack`, installed from the tarball outside this
// checkout): Bun (`Bun.serve`), Deno (`Deno.serve`) and Cloudflare's workerd (the handler
// as a Worker's fetch); a Next.js App Router app is next.test.ts. Each pays a card checkout
// through a sandbox on a free port, and onPaid runs exactly once (and Elysia on Bun, as
// docs/server.md mounts it, the same): each fixture prints a
// line per call, counted here once the provider's webhook has been answered (see
// webhookDelivered).
//
// And the widget where merchants' bundlers build it: a Vite page's production build
// (fixtures/vite) imports `payment-widget` with `locale="nl-NL"` and nothing else, and shows
// Dutch labels: the bundler found the Dutch strings by itself, with nothing copied and no
// path set (the Next.js app's Dutch page is next.test.ts).
//
// The runtimes come from npm (test/runtimes/package.json, installed by `npm test`). Set
// KEEP_RUNTIMES=1 to keep the projects.
import assert from 'node:assert/strict';
import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium } from '@playwright/test';
import { build } from 'esbuild';
// @ts-expect-error -- a plain .mjs helper shared with web-test-runner; it has no type declarations
import { chromiumArgs, headlessChromiumPath } from '../../scripts/browser.mjs';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.ts';
import { toNodeListener } from '../../src/server/index.ts';
import { type TemporaryFolder, temporaryFolder } from '../node/support/children.ts';
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
  showsDutch,
  start,
  watchErrors,
  webhookDelivered,
} from './support.ts';

const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));
const RUNTIME_VERSIONS = (
  JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as {
    devDependencies: Record<string, string>;
  }
).devDependencies;
/** `paid <id>`: what the fixtures' onPaid prints. */
const PAID = /^paid (\S+)$/gm;

let folder: TemporaryFolder | undefined;
let workspace = '';
let tarball = '';
/** The fixtures and the packed package, installed: what Bun, Deno and workerd run. */
let project = '';

before(() => {
  folder = temporaryFolder('payment-widget-runtimes-', {
    keep: Boolean(process.env.KEEP_RUNTIMES),
  });
  workspace = folder.dir;
  ({ tarball } = packProject(workspace));
  project = join(workspace, 'serve');
  cpSync(FIXTURES, project, { recursive: true });
  // Elysia at the version test/runtimes/package.json holds (npm test installed it there, so
  // npm finds it in its cache).
  const elysia = RUNTIME_VERSIONS.elysia;
  assert.ok(elysia, 'test/runtimes/package.json names no elysia');
  installProject(project, tarball, { dependencies: { elysia } });
});

after(() => {
  if (process.env.KEEP_RUNTIMES) console.log(`runtime projects kept in ${workspace}`);
  else folder?.remove();
});

/** Chromium, as the other suites launch it. */
function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: headlessChromiumPath() as string,
    args: chromiumArgs as string[],
  });
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
): Promise<string> {
  const origin = `http://127.0.0.1:${port}`;
  const { sandbox, log } = await sandboxWithLog();
  let running: Running | undefined;
  try {
    running = await launch({ ...providerSettings(sandbox), SHOP_ORIGIN: origin, PORT: `${port}` });
    await answering(`${origin}/payments/checkouts/none`, running);
    const id = await payByCard(`${origin}/payments`, origin);
    await webhookDelivered(sandbox, id, log);
    assert.deepEqual(paidLines(running.output(), PAID), [id], running.output());
    return running.output();
  } finally {
    await running?.stop();
    await sandbox.close();
  }
}

test('bun', async () => {
  const bun = runtimeBinary('bun', 'bun');
  await paysThrough((env) => start(bun, ['bun.ts'], { cwd: project, env }), await freePort());
});

test('elysia', async () => {
  const bun = runtimeBinary('bun', 'bun');
  const said = await paysThrough(
    (env) => start(bun, ['elysia.ts'], { cwd: project, env }),
    await freePort(),
  );
  // Handed Bun's server, the rate limits know each client: no warning that they cannot.
  assert.doesNotMatch(said, /rate limit/i);
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
