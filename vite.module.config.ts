import { defineConfig } from 'vite';
import { minifyCssTemplates } from './scripts/minify-css.ts';
import { minifyHtmlTemplates } from './scripts/minify-html.ts';
import browserBuild from './vite.config.ts';

/**
 * The package's entry (`dist/index.js`, what `import 'payment-widget'`
 * resolves to): the widget as an ES module that imports Lit rather than holding
 * a copy. The merchant's bundler then puts one Lit in the page, shared with any
 * other Lit element there, and Node resolves Lit's own server build (which
 * brings Lit's DOM shim), so importing the widget in a server render defines
 * the element there instead of throwing. The self-contained bundles
 * (`payment-widget.js`, `payment-widget.iife.js`, vite.config.ts) stay for
 * pages without a bundler.
 *
 * Left readable and its property names unmangled: the merchant's bundler
 * minifies it, and our `_name`s could not be shortened safely here anyway,
 * because Lit's own minified members (short names on the same element) are not
 * in this file to be avoided, and the merchant's Lit may be a later 3.x.
 */
export default defineConfig({
  // The styles' and the templates' whitespace goes here too: a merchant's bundler leaves
  // template text alone.
  plugins: [minifyCssTemplates(), minifyHtmlTemplates()],
  build: {
    outDir: 'dist',
    // Beside the other builds and `locales/`, which the widget loads from its own URL.
    emptyOutDir: false,
    target: browserBuild.build?.target,
    minify: false,
    sourcemap: false,
    rolldownOptions: {
      external: [/^lit(\/|$)/, /^@lit\//, /^lit-html(\/|$)/, /^lit-element(\/|$)/],
      checks: browserBuild.build?.rolldownOptions?.checks,
      output: {
        // The declarations carry the docs. Kept: the `@__PURE__` and
        // `@vite-ignore` marks the merchant's bundler reads.
        comments: { legal: true, annotation: true, jsdoc: false },
        // What loads on demand (src/widget/parts/imports.ts: the parts, each language),
        // in files of its own that the merchant's bundler splits off in turn.
        chunkFileNames: 'chunks/[name]-[hash].js',
      },
    },
    lib: {
      entry: 'src/index.ts',
      formats: ['es'],
      fileName: () => 'index.js',
    },
  },
});
