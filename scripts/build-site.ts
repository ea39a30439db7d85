// `npm run build:site`: the static site in dist/site/, where the demo shop pays through the
// widget, the payment handler and the sandbox, all running in the browser (site/). It takes
// the widget's and the dashboard's builds from dist/ (`npm run build` first) and adds:
//
//   sw.js          the Service Worker: the handler, the sandbox and the shop's pages, and
//                  the list of every other file here, which it caches when it installs
//   boot.js        installs the worker from whichever page a visit starts on
//   index.html …   those first pages (the shop's, the result page's, the dashboard's)
//   assets/        the widget's builds, as the demo serves them
//   demo/          the demo's styles and scripts
//
// Every URL in it is relative, so the site works under any path.
//
//   node --import tsx scripts/build-site.ts

import { createHash } from 'node:crypto';
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build, type Plugin } from 'esbuild';
import { banner } from '../site/banner.ts';
import { BUNDLES } from '../src/server/page/manifest.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const DIST = join(ROOT, 'dist');
export const SITE = join(DIST, 'site');

/** `import text from './file?raw'`: the file's text, as Vite reads it. */
const raw: Plugin = {
  name: 'raw',
  setup(b) {
    b.onResolve({ filter: /\?raw$/ }, (args) => ({
      path: join(args.resolveDir, args.path.slice(0, -'?raw'.length)),
      namespace: 'raw',
    }));
    b.onLoad({ filter: /.*/, namespace: 'raw' }, (args) => ({
      contents: readFileSync(args.path, 'utf8'),
      loader: 'text',
    }));
  },
};

/** Fails the build when the worker would carry something only Node has. */
const browserOnly: Plugin = {
  name: 'browser-only',
  setup(b) {
    b.onResolve({ filter: /^node:/ }, (args) => ({
      errors: [{ text: `${args.path} (imported by ${args.importer}) has no place in the site` }],
    }));
  },
};

/**
 * dist/integrity.json built into the worker, as the Node build does (vite.node.config.ts):
 * the shop's pages take the widget's tag from widgetTags(), and a worker has no file to read.
 * Only the two files a page's own tag loads: widgetTags() reads nothing else.
 */
const builtManifest: Plugin = {
  name: 'built-manifest',
  setup(b) {
    b.onLoad({ filter: /[\\/]src[\\/]server[\\/]page[\\/]built\.ts$/ }, () => {
      const manifest = JSON.parse(readFileSync(join(DIST, 'integrity.json'), 'utf8'));
      const bundles: string[] = Object.values(BUNDLES);
      manifest.files = manifest.files.filter((f: { path: string }) => bundles.includes(f.path));
      return {
        contents: `const MANIFEST = ${JSON.stringify(manifest)};\nexport function builtManifest() { return MANIFEST; }\n`,
        loader: 'js',
      };
    });
  },
};

/** The first page of a visit, whichever it is: it installs the worker (boot.ts). */
function bootPage(root: string): string {
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Starting the simulation · payment-widget</title>
    <link rel="icon" href="${root}demo/favicon.svg" type="image/svg+xml" />
    <link rel="stylesheet" href="${root}demo/demo.css" />
  </head>
  <body>
    ${banner(root)}
    <main>
      <h1>Starting the simulation</h1>
      <p id="boot-status" role="status">
        Installing the shop, its payment handler and the payment provider in this browser…
      </p>
      <noscript>The simulation runs in your browser: it needs JavaScript.</noscript>
    </main>
    <script src="${root}boot.js"></script>
  </body>
</html>
`;
}

export async function buildSite(): Promise<void> {
  if (!existsSync(join(DIST, 'payment-widget.iife.js'))) {
    throw new Error('dist/ has no widget build: run `npm run build` first');
  }
  rmSync(SITE, { recursive: true, force: true });
  mkdirSync(join(SITE, 'provider'), { recursive: true });
  const common = {
    bundle: true,
    minify: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    legalComments: 'none',
    logLevel: 'warning',
    tsconfig: join(ROOT, 'tsconfig.json'),
  } as const;
  for (const [entry, out] of [
    ['boot.ts', 'boot.js'],
    ['page.ts', 'site.js'],
  ]) {
    await build({
      ...common,
      entryPoints: [join(ROOT, 'site', entry!)],
      outfile: join(SITE, out!),
    });
  }

  const assets = join(SITE, 'assets');
  mkdirSync(assets);
  for (const name of ['payment-widget.iife.js', 'payment-widget.js']) {
    copyFileSync(join(DIST, name), join(assets, name));
  }
  for (const dir of ['parts', 'locales'])
    cpSync(join(DIST, dir), join(assets, dir), { recursive: true });
  mkdirSync(join(SITE, 'demo'));
  for (const name of ['demo.css', 'events.js', 'favicon.svg']) {
    copyFileSync(join(ROOT, 'demo', name), join(SITE, 'demo', name));
  }
  // The dashboard's script with Lit in it: the package's imports `lit`, which the sandbox
  // serves from node_modules; a site has no node_modules, so its one file holds both.
  await build({
    ...common,
    format: 'esm',
    entryPoints: [join(DIST, 'sandbox-dashboard', 'dashboard.js')],
    outfile: join(SITE, 'sandbox-dashboard.js'),
  });
  copyFileSync(join(ROOT, 'site', 'site.css'), join(SITE, 'site.css'));
  for (const name of ['index.html', 'module.html', 'result.html']) {
    writeFileSync(join(SITE, name), bootPage(''));
  }
  writeFileSync(join(SITE, 'provider', 'index.html'), bootPage('../'));

  // The worker last: it carries the list of every file above and a hash of their bytes
  // (site/worker/precache.ts), so that any change to one of them is a new worker.
  const list = files(SITE)
    .map((path) => relative(SITE, path).split(sep).join('/'))
    .sort();
  const version = createHash('sha256');
  for (const file of list) version.update(`${file}\0`).update(readFileSync(join(SITE, file)));
  await build({
    ...common,
    entryPoints: [join(ROOT, 'site/worker/sw.ts')],
    outfile: join(SITE, 'sw.js'),
    plugins: [raw, builtManifest, browserOnly],
    define: {
      SITE_FILES: JSON.stringify(list),
      SITE_VERSION: JSON.stringify(version.digest('hex').slice(0, 16)),
    },
  });
}

/** Every file below `dir`. */
function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? files(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}

/** Bytes as served and as gzip at level 9 (what BENCHMARKS.md gives). */
function size(paths: string[]): string {
  const texts = paths.map((path) => readFileSync(path));
  const raw = texts.reduce((sum, text) => sum + text.length, 0);
  const packed = texts.reduce((sum, text) => sum + gzipSync(text, { level: 9 }).length, 0);
  return `${raw.toLocaleString('en')} B (${packed.toLocaleString('en')} B gzip)`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await buildSite();
  const all = files(SITE);
  console.log(`dist/site/: ${all.length} files, ${size(all)}`);
  console.log(`dist/site/sw.js (the worker): ${size([join(SITE, 'sw.js')])}`);
}
