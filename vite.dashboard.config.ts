import { defineConfig } from 'vite';

// The sandbox dashboard's script: one self-contained ES module (Lit included) that the
// sandbox serves to the browser at /sandbox/dashboard/dashboard.js. A separate bundle from
// the widget's: the widget never loads it, and its size budget is not touched.
export default defineConfig({
  build: {
    outDir: 'dist/sandbox-dashboard',
    emptyOutDir: true,
    // A developer's tool: the browsers a developer runs, not every shopper's.
    target: 'es2022',
    minify: true,
    sourcemap: false,
    lib: {
      entry: 'src/sandbox/dashboard/main.ts',
      formats: ['es'],
      fileName: () => 'dashboard.js',
    },
  },
});
