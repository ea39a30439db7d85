import { defineConfig, type Plugin } from 'vite';
import { localeModuleSource, TAGS } from './src/widget/locales/all.ts';

/**
 * Writes `locales/{tag}.js` beside the bundles, one small ES module per
 * non-English locale (English is bundled). The widget imports them at run time
 * from its own URL (src/widget/locales/load.ts), so the IIFE and the ES build
 * share the same files, and a shopper downloads only the locale they read.
 */
function localeFiles(): Plugin {
  return {
    name: 'payment-widget-locales',
    generateBundle() {
      for (const tag of TAGS) {
        if (tag.startsWith('en-')) continue;
        this.emitFile({
          type: 'asset',
          fileName: `locales/${tag}.js`,
          source: localeModuleSource(tag),
        });
      }
    },
  };
}


// The browser build: an ES module for bundlers and one self-contained IIFE for a
// script tag (`dist/payment-widget.iife.js`, global `PaymentWidget`).
export default defineConfig({
  plugins: [localeFiles()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    minify: true,
    sourcemap: false,
    lib: {
      entry: 'src/index.ts',
      name: 'PaymentWidget',
      formats: ['es', 'iife'],
      fileName: (format) => (format === 'es' ? 'payment-widget.js' : `payment-widget.${format}.js`),
    },
  },
});
