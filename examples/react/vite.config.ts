import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// Served by server-example at /examples/react/. React 19 needs no plugin for
// this page: vite compiles the JSX, and React 19 passes properties and event
// listeners to custom elements by itself.
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/examples/react/',
  resolve: {
    // Stands in for `npm install payment-widget`: the build of this checkout
    // (`npm run build` at the top first), so the examples never lag behind it.
    alias: {
      'payment-widget': fileURLToPath(new URL('../../dist/index.js', import.meta.url)),
    },
  },
  build: {
    outDir: fileURLToPath(new URL('../dist/react/', import.meta.url)),
    emptyOutDir: true,
  },
});
