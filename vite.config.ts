import { defineConfig } from 'vite';

// The browser build: an ES module for bundlers and one self-contained IIFE for a
// script tag (`dist/payment-widget.iife.js`, global `PaymentWidget`).
export default defineConfig({
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
