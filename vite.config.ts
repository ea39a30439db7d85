import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import { builtFiles, builtIntegrity, CARRIED } from './scripts/integrity.ts';
import { dropUnusedLitHtml } from './scripts/lit-html-unused.ts';
import { dropLitPolyfillHooks } from './scripts/lit-polyfill-hooks.ts';
import { dropUnusedLit } from './scripts/lit-unused.ts';
import { minifyCssTemplates } from './scripts/minify-css.ts';
import { minifyHtmlTemplates } from './scripts/minify-html.ts';

/**
 * Builds with the module `replacement` wherever the sources import `original` (both paths
 * from the repository's root), except in `replacement` itself, which may build on it: the
 * self-contained builds load their parts from beside themselves
 * (src/widget/parts/imports-beside.ts), the parts they load take Lit from them
 * (src/widget/parts/kit-lent.ts).
 */
export function replaceModule(original: string, replacement: string): Plugin {
  const from = fileURLToPath(new URL(original, import.meta.url));
  const to = fileURLToPath(new URL(replacement, import.meta.url));
  return {
    name: 'payment-widget-replace-module',
    enforce: 'pre',
    async resolveId(source, importer, options) {
      if (importer === to || !source.endsWith(original.slice(original.lastIndexOf('/'))))
        return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      return resolved?.id === from ? to : null;
    },
  };
}

/**
 * Which property names the minifier may shorten: Lit's own convention, a leading
 * underscore for members private to the bundle. Lit's published build already
 * spells its cross-module protocol `_$...` (`_$litType$`, `_$cssResult$`, the
 * `_$AB`-style renamed fields shared between lit-html and ReactiveElement):
 * another copy of Lit on the page, its SSR hydration and its dev tools read
 * those, so they keep their names. `__proto__` and other double-underscore
 * names are never ours, nor is a bare `_` (a name Lit's own minifier gave).
 * test/node/budget/mangle.test.ts checks the built bundles: every public name
 * intact, every `_$` name of Lit's kept.
 */
export const MANGLED_PROPERTIES = { include: /^_/, exclude: /^_\$|^__|^_$/ };

/**
 * browserslist's names for the browsers we support, as the bundler's targets
 * call them. Samsung Internet has no target of its own in Vite's CSS tooling:
 * it runs Chromium (19 on Chromium 102), which the chrome target covers.
 */
const TARGET_NAMES: Record<string, string | null> = {
  chrome: 'chrome',
  edge: 'edge',
  samsung: null,
  firefox: 'firefox',
  safari: 'safari',
  ios_saf: 'ios',
};

/**
 * The bundler's targets from package.json's `browserslist`, so the browsers we
 * support are written down once: `safari >= 15` becomes `safari15`. Only that
 * one form is read (a browser and its oldest version); anything else is an
 * error rather than a silently wrong target.
 */
export function buildTargets(queries: readonly string[]): string[] {
  return queries.flatMap((query) => {
    const match = /^(\w+) >= ([\d.]+)$/.exec(query.trim());
    const browser = match?.[1] ?? '';
    const name = Object.hasOwn(TARGET_NAMES, browser) ? TARGET_NAMES[browser] : undefined;
    if (!match || name === undefined) {
      throw new Error(`browserslist: cannot read "${query}" as a build target`);
    }
    return name === null ? [] : [`${name}${match[2]}`];
  });
}

const BROWSERS: string[] = JSON.parse(
  readFileSync(new URL('./package.json', import.meta.url), 'utf8'),
).browserslist;

// The self-contained browser builds: an ES module for pages without a bundler and one IIFE
// for a script tag (`dist/payment-widget.iife.js`, global `PaymentWidget`). Each is one file
// with what the card form needs; the rest loads from beside it (`parts/`, and `locales/`
// through the languages part) when needed, each checked against the hash built in here
// (scripts/build.ts builds the parts first).
export default defineConfig({
  plugins: [
    minifyCssTemplates(),
    minifyHtmlTemplates(),
    // Lit's hooks for the shadow DOM polyfills, which no supported browser needs.
    dropLitPolyfillHooks(),
    // Lit's decorators, attribute reflection, JSON attributes and kept defaults, which the
    // widget does not use.
    dropUnusedLit(),
    // lit-html's directives, MathML and raw-text bindings, which no template uses.
    dropUnusedLitHtml({ cut: true }),
    replaceModule('./src/widget/parts/imports.ts', './src/widget/parts/imports-beside.ts'),
    builtIntegrity('src/widget/parts/integrity.ts', 'PART_INTEGRITY', () =>
      builtFiles('parts', CARRIED.bundle),
    ),
  ],
  build: {
    outDir: 'dist',
    // Not emptied here: dist/node (the Node build, which `payment-sandbox` runs) lives
    // inside it, and a bare `vite build` must not delete it. `npm run build` starts clean.
    emptyOutDir: false,
    // Syntax the oldest of them cannot parse is lowered (Safari 15 has no class
    // static blocks); test/node/budget/browsers.test.ts checks the result, Lit
    // included, and every API it calls.
    target: buildTargets(BROWSERS),
    minify: true,
    sourcemap: false,
    rolldownOptions: {
      checks: {
        // The script-tag build has no import.meta, so the bundler empties it, as
        // src/widget/locales/load.ts expects: there `import.meta.url` is one of
        // three ways to find the bundle's URL, and document.currentScript answers.
        emptyImportMeta: false,
      },
      output: {
        // No Symbol.toStringTag on the IIFE's `PaymentWidget` global: two dozen
        // bytes that only change how the object prints in a console.
        generatedCode: { symbols: false },
        // Vite's library mode keeps the ES output's whitespace (codegen off) so the
        // merchant's bundler can read it; it minifies again anyway, and keeps the
        // /* @__PURE__ */ marks either way. Whitespace-free, the ES entry a page
        // may load straight from a CDN is as small as the IIFE.
        minify: {
          codegen: true,
          mangleProps: MANGLED_PROPERTIES,
        },
      },
    },
    lib: {
      entry: 'src/index.ts',
      name: 'PaymentWidget',
      formats: ['es', 'iife'],
      fileName: (format) => (format === 'es' ? 'payment-widget.js' : `payment-widget.${format}.js`),
    },
  },
});
