import { defineConfig } from 'vite';
import { minifyCssTemplates } from './scripts/minify-css.ts';
import browserBuild from './vite.config.ts';

/**
 * The next steps the self-contained bundles load when needed (src/next-step/steps/lazy.ts):
 * `steps/{name}.js` beside `payment-widget(.iife).js`, one minified ES module each and the
 * code they share, for the same browsers. Property names stay whole (the bundle shortens
 * its `_` names, which the objects a step shares with it, its context and its outcome, have
 * none of).
 */
export default defineConfig({
  plugins: [minifyCssTemplates()],
  build: {
    outDir: 'dist/steps',
    emptyOutDir: true,
    target: browserBuild.build?.target,
    minify: true,
    sourcemap: false,
    lib: {
      entry: {
        voucher: 'src/next-step/handlers/voucher.ts',
        'apm-redirect': 'src/next-step/handlers/apm-redirect.ts',
        'challenge-redirect': 'src/next-step/handlers/challenge-redirect.ts',
      },
      formats: ['es'],
      fileName: (_format, name) => `${name}.js`,
    },
    // The code the steps share, in one file beside them, named by content.
    rolldownOptions: {
      output: {
        chunkFileNames: 'shared-[hash].js',
      },
    },
  },
});
