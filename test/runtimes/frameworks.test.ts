// The README's SvelteKit and Nuxt recipes as apps (examples/sveltekit: the handler in a
// `+server.ts` catch-all route, `getClientAddress()` for the rate limits; examples/nuxt: the
// handler as a Nitro server route, given `toWebRequest(event)` and Node's request), and
// docs/server.md's TanStack Start one (examples/tanstack-start: a splat server route, the
// product page rendered on the server, its build served by srvx) and the README's Angular one
// (examples/angular: the handler in Angular's Express server, the pages rendered per request
// and hydrated); each with
// the basket's cookie, the product page naming its `order`, and a result page), built for
// production from the packed package, started as their adapters start them, and paid through
// in Chromium: the basket's one checkout found again by a reload and paid, onPaid once, still
// paid after a reload, then (all but SvelteKit) "Buy again", a new basket, and a second
// checkout of the same mug paid; a failed full-page 3-D Secure ending on the result page, which offers another card
// (reloaded once it paid, it shows it paid); and the bank's return into the 3-D Secure iframe,
// which carries no cookie, gets none. The console stays quiet throughout.
//
// One tarball for both. Each app's packages come from its own lock (examples/sveltekit,
// examples/nuxt), installed with the tarball outside this checkout; npm test runs this file on
// its own Node only (a framework's build does not depend on Node's line). Set KEEP_RUNTIMES=1
// to keep the apps.
import assert from 'node:assert/strict';
import { cpSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { type Browser, chromium } from '@playwright/test';
// @ts-expect-error -- a plain .mjs helper shared with web-test-runner; it has no type declarations
import { chromiumArgs, headlessChromiumPath } from '../../scripts/browser.mjs';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.ts';
import { type TemporaryFolder, temporaryFolder } from '../node/support/children.ts';
import { installProject, packProject, ROOT } from '../shared/packed.ts';
import {
  type App,
  paysTheBasketsCheckoutAfterAReload,
  resultPageAfterAFailedChallenge,
  theFramedReturnSetsNoBasket,
} from './shop-pages.ts';
import { answering, freePort, providerSettings, type Running, start } from './support.ts';

/** What the tests start: an app's build and its server, with what it prints. */
interface Recipe {
  /** Its folder under examples/. */
  name: string;
  /** The commands that build it, run in order from its folder (a binary of its node_modules, then arguments). */
  build: string[][];
  /** Where its pages mount the handler, if not at /api/payments. */
  endpoint?: string;
  /** Whether its product page offers "Buy again" once paid (a new basket). */
  buysAgain: boolean;
  /** Its production server, given the port and the shop's origin. */
  serve(port: number, origin: string): { args: string[]; env: Record<string, string> };
}

const SVELTEKIT: Recipe = {
  name: 'sveltekit',
  // Not yet: its widget, whose `order` is an attribute, can say "paid" before hydration
  // attaches the page's listener, so a "paid" flag set by that listener can be missed.
  buysAgain: false,
  // `svelte-kit sync` is the package's `prepare`, which npm runs on install (here, with
  // --ignore-scripts, it is run by hand): it writes the tsconfig the build extends.
  build: [
    ['node_modules/@sveltejs/kit/svelte-kit.js', 'sync'],
    ['node_modules/vite/bin/vite.js', 'build'],
  ],
  // adapter-node's server: `node build`, told where shoppers reach it (ORIGIN).
  serve: (port, origin) => ({
    args: ['build'],
    env: { HOST: '127.0.0.1', PORT: `${port}`, ORIGIN: origin },
  }),
};

const NUXT: Recipe = {
  name: 'nuxt',
  buysAgain: true,
  build: [['node_modules/nuxt/bin/nuxt.mjs', 'build']],
  // Nitro's node-server output.
  serve: (port, origin) => ({
    args: ['.output/server/index.mjs'],
    env: { HOST: '127.0.0.1', PORT: `${port}`, SHOP_ORIGIN: origin },
  }),
};

const TANSTACK_START: Recipe = {
  name: 'tanstack-start',
  buysAgain: true,
  build: [['node_modules/vite/bin/vite.js', 'build']],
  // The build's fetch handler on srvx, its client files beside it (the example's `npm start`).
  serve: (port, origin) => ({
    args: [
      'node_modules/srvx/bin/srvx.mjs',
      'serve',
      '--prod',
      '--host=127.0.0.1',
      `--port=${port}`,
      '--static=../client',
      '--entry=dist/server/server.js',
    ],
    env: { SHOP_ORIGIN: origin },
  }),
};

const ANGULAR: Recipe = {
  name: 'angular',
  buysAgain: true,
  endpoint: '/payments',
  build: [['node_modules/@angular/cli/bin/ng.js', 'build']],
  // Angular's Express server (src/server.ts), the browser's files beside it.
  serve: (port, origin) => ({
    args: ['dist/angular/server/server.mjs'],
    env: { HOST: '127.0.0.1', PORT: `${port}`, SHOP_ORIGIN: origin },
  }),
};

/** What an app writes as it installs and builds: never copied from a developer's checkout. */
const GENERATED = new Set([
  'node_modules',
  '.svelte-kit',
  'build',
  '.nuxt',
  '.output',
  '.data',
  '.angular',
  'dist',
  'routeTree.gen.ts',
]);
const quiet = { NUXT_TELEMETRY_DISABLED: '1', NG_CLI_ANALYTICS: 'false', NO_COLOR: '1' };

let folder: TemporaryFolder | undefined;
let workspace = '';
let tarball = '';
let sandbox: Sandbox;
const sandboxLog: string[] = [];
let browser: Browser;

before(async () => {
  folder = temporaryFolder('payment-widget-frameworks-', {
    keep: Boolean(process.env.KEEP_RUNTIMES),
  });
  workspace = folder.dir;
  ({ tarball } = packProject(workspace));
  sandbox = await createSandbox({ port: 0, log: (line) => sandboxLog.push(line) });
  browser = await chromium.launch({
    executablePath: headlessChromiumPath() as string,
    args: chromiumArgs as string[],
  });
});

after(async () => {
  await browser?.close();
  await sandbox?.close();
  if (process.env.KEEP_RUNTIMES) console.log(`the apps kept in ${workspace}`);
  else folder?.remove();
});

/** Installs `recipe`'s app beside the tarball, builds it, and starts its server. */
async function startApp(recipe: Recipe): Promise<App> {
  const example = join(ROOT, 'examples', recipe.name);
  const dir = join(workspace, recipe.name);
  cpSync(example, dir, {
    recursive: true,
    filter: (source) => !GENERATED.has(basename(source)) && basename(source) !== 'package.json',
  });
  const manifest = JSON.parse(readFileSync(join(example, 'package.json'), 'utf8')) as {
    dependencies?: Record<string, string>;
    devDependencies?: Record<string, string>;
  };
  installProject(dir, tarball, manifest);
  for (const [script, ...args] of recipe.build) {
    const built = start(process.execPath, [join(dir, script ?? ''), ...args], {
      cwd: dir,
      env: quiet,
    });
    assert.equal(await built.exitCode(), 0, built.output());
  }
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const { args, env } = recipe.serve(port, origin);
  const server = start(process.execPath, args, {
    cwd: dir,
    env: { ...quiet, ...providerSettings(sandbox), ...env },
  });
  await answering(`${origin}/`, server);
  return { origin, server, sandbox, sandboxLog };
}

for (const [title, recipe] of [
  ['SvelteKit', SVELTEKIT],
  ['Nuxt', NUXT],
  ['TanStack Start', TANSTACK_START],
  ['Angular', ANGULAR],
] as const) {
  describe(title, () => {
    let app: App | undefined;
    let server: Running | undefined;
    before(async () => {
      app = await startApp(recipe);
      server = app.server;
    });
    after(async () => {
      await server?.stop();
    });

    test('a reload finds the basket’s checkout, which pays by card; onPaid once; “Buy again” pays a new one; console quiet', async () => {
      assert.ok(app);
      await paysTheBasketsCheckoutAfterAReload(
        browser,
        app,
        recipe.endpoint ?? '/api/payments',
        recipe.buysAgain,
      );
    });

    test('a failed full-page 3-D Secure ends on the result page, where another card pays; a reload shows it paid', async () => {
      assert.ok(app);
      await resultPageAfterAFailedChallenge(browser, app);
    });

    test('the bank’s return in the widget’s iframe, which carries no cookie, sets no basket', async () => {
      assert.ok(app);
      await theFramedReturnSetsNoBasket(app, recipe.endpoint ?? '/api/payments');
    });

    test('the rate limits knew each shopper’s address: no warning that they could not', () => {
      assert.doesNotMatch(server?.output() ?? '', /client address of a request is unknown/);
    });
  });
}
