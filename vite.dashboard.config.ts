import { defineConfig } from 'vite';
import { minifyCssTemplates } from './scripts/minify-css.ts';
import { minifyHtmlTemplates } from './scripts/minify-html.ts';

// The sandbox dashboard's script: one ES module that the sandbox serves to the browser at
// /sandbox/dashboard/dashboard.js. A separate bundle from the widget's: the widget never loads
// it, and its size budget is not touched. It imports `lit`, which the page's import map finds
// among the modules the sandbox serves from the package's `lit` dependency
// (src/sandbox/control/dashboard.ts): a copy of Lit here was 15 kB of the package.
export default defineConfig({
  // Its styles' and templates' whitespace out, as the widget's (a minifier leaves a template's
  // text as written): 4.7 kB of the package.
  plugins: [minifyCssTemplates(), minifyHtmlTemplates()],
  build: {
    outDir: 'dist/sandbox-dashboard',
    emptyOutDir: true,
    // A developer's tool: the browsers a developer runs, not every shopper's.
    target: 'es2022',
    minify: true,
    sourcemap: false,
    // Whitespace too, which Vite's library mode leaves for an ES module (for the bundler
    // that reads it next; a browser reads this one): 7 kB of 55 kB.
    rolldownOptions: { external: [/^lit(\/|$)/], output: { minify: true } },
    lib: {
      entry: 'src/sandbox/dashboard/main.ts',
      formats: ['es'],
      fileName: () => 'dashboard.js',
    },
  },
});
