import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { minifyCssTemplates } from './scripts/minify-css.ts';
import browserBuild, { replaceModule } from './vite.config.ts';

/**
 * The parts of the widget the self-contained builds load when needed
 * (src/widget/parts/imports-beside.ts): `parts/{name}.js` beside `payment-widget(.iife).js`,
 * one minified ES module each and the code they share, for the same browsers. They hold no
 * Lit: src/widget/parts/kit-lent.ts takes the bundle's own in kit.ts's place. Property names
 * stay whole (the bundle shortens its `_` names; what it hands a part has none).
 */
export default defineConfig({
  plugins: [
    minifyCssTemplates(),
    replaceModule('./src/widget/parts/kit.ts', './src/widget/parts/kit-lent.ts'),
    // The domain's functions that the bundle holds too, lent by it like the kit's.
    replaceModule('./src/domain/checkout.ts', './src/widget/parts/domain-lent.ts'),
    replaceModule('./src/shared/record.ts', './src/widget/parts/domain-lent.ts'),
    // Each locale's ready-merged file beside the bundle, instead of each language's module.
    replaceModule('./src/widget/locales/languages.ts', './src/widget/locales/languages-beside.ts'),
  ],
  resolve: {
    // The next steps' styles take css from Lit itself: from the bundle's, too.
    alias: [
      {
        find: /^lit$/,
        replacement: fileURLToPath(new URL('./src/widget/parts/kit-lent.ts', import.meta.url)),
      },
    ],
  },
  build: {
    outDir: 'dist/parts',
    emptyOutDir: true,
    target: browserBuild.build?.target,
    minify: true,
    sourcemap: false,
    lib: {
      entry: {
        pay: 'src/widget/parts/pay.ts',
        languages: 'src/widget/parts/languages.ts',
        diagnostics: 'src/widget/parts/diagnostics.ts',
      },
      formats: ['es'],
      fileName: (_format, name) => `${name}.js`,
    },
    rolldownOptions: {
      output: {
        chunkFileNames: 'shared-[hash].js',
        // Whitespace-free like the bundle (library mode's ES output keeps it otherwise);
        // property names stay whole (see above).
        minify: { codegen: true },
        // Only the bundle loads a part, never a bundler: the marks that tell one what it may
        // drop (`/* @__PURE__ */`) are bytes nobody reads here.
        comments: { annotation: false },
      },
    },
  },
});
