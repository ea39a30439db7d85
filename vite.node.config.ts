import { readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import { MANIFEST } from './scripts/integrity.ts';
import { shortLines } from './scripts/short-lines.ts';
import type { BuiltFiles, IntegrityManifest } from './src/server/page/manifest.ts';

/**
 * `payment-widget/server` carries the hashes of the page's bundles from dist/integrity.json
 * (written before this build, by scripts/build.ts): widgetTags() names the hash of the very
 * files it ships beside, on any runtime, with no file to read. Only what it reads (BuiltFiles):
 * the words for people stay in the JSON file, not twice in the package, and so do the other
 * files' hashes, which `payment-widget check-page`, a Node command, reads from the file
 * (src/server/page/check-cli.ts). src/server/page/built.ts reads the file instead when run
 * from the sources.
 */
function builtManifest(): Plugin {
  const id = fileURLToPath(new URL('./src/server/page/built.ts', import.meta.url));
  return {
    name: 'payment-widget-built-manifest',
    enforce: 'pre',
    load(loaded) {
      if (loaded !== id) return null;
      const { name, version, files } = JSON.parse(
        readFileSync(MANIFEST, 'utf8'),
      ) as IntegrityManifest;
      const built: BuiltFiles = {
        name,
        version,
        // The files the page checks, with the tag widgetTags() writes: the others' hashes were
        // 4.4 kB of the package here, beside the same in integrity.json.
        files: files
          .filter(({ checkedBy }) => checkedBy === 'page')
          .map(({ path, integrity, checkedBy }) => ({ path, integrity, checkedBy })),
      };
      // A string for JSON.parse: the bundler leaves it on one line (an object literal it indents).
      const json = JSON.stringify(JSON.stringify(built));
      return `const MANIFEST = JSON.parse(${json});\nexport function builtManifest() { return MANIFEST; }\n`;
    },
  };
}

/**
 * Each built file in lines of about 200 characters (scripts/short-lines.ts): an uncaught error
 * shows its frame's line, not the whole minified file. After the minifier, which prints one line.
 */
function shortLinesPlugin(): Plugin {
  return {
    name: 'payment-widget-short-lines',
    generateBundle(_options, bundle) {
      for (const file of Object.values(bundle)) {
        if (file.type === 'chunk') file.code = shortLines(file.code);
      }
    },
  };
}

// The Node entry points (`payment-widget/server`, `/server/testing`, `/sandbox`, `/schemas` and the
// `payment-sandbox` and `payment-widget` CLIs), built as plain ES modules for Node 22 and later (package.json
// `engines`) so that a merchant's install needs no TypeScript loader.
export default defineConfig({
  plugins: [builtManifest(), shortLinesPlugin()],
  build: {
    outDir: 'dist/node',
    emptyOutDir: true,
    target: 'node22',
    ssr: true,
    sourcemap: false,
    rollupOptions: {
      input: {
        server: 'src/server/index.ts',
        'server-testing': 'src/server/testing/index.ts',
        sandbox: 'src/sandbox/index.ts',
        'sandbox-cli': 'src/sandbox/cli.ts',
        'check-page-cli': 'src/server/page/check-cli.ts',
        schemas: 'src/schemas/index.ts',
      },
      external: [...builtinModules, /^node:/, /^zod/],
      output: {
        format: 'es',
        entryFileNames: '[name].js',
        chunkFileNames: 'chunks/[name]-[hash].js',
        // Without the sources' comments: the declarations carry the API's docs, and the
        // sources are the place to read the rest. Minified (389 kB to 278 kB, no map needed),
        // every function's and class's name kept: a stack trace names the very functions and
        // classes of the sources. Whitespace and syntax alone made 324 kB; the local names
        // shortened too take 43 kB more. Then in lines of about 200 characters (shortLinesPlugin
        // above, 1.2 kB): a crash shows the line it happened in, not the whole file.
        comments: { legal: true, annotation: true, jsdoc: false },
        minify: {
          compress: { target: 'node22', keepNames: { function: true, class: true } },
          mangle: { keepNames: true },
          codegen: { removeWhitespace: true, legalComments: 'inline' },
        },
      },
    },
  },
});
