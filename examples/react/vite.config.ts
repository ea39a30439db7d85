import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// Served by server-example at /examples/react/. React needs no plugin for this page: vite
// compiles the JSX.
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/examples/react/',
  resolve: {
    // dist/react.js sits in the repository, whose own node_modules has React too: one React.
    dedupe: ['react', 'react-dom', '@lit/react'],
    // Stands in for `npm install payment-widget`: the build of this checkout
    // (`npm run build` at the top first), so the examples never lag behind it.
    alias: [
      {
        find: 'payment-widget/react',
        replacement: fileURLToPath(new URL('../../dist/react.js', import.meta.url)),
      },
      {
        find: 'payment-widget',
        replacement: fileURLToPath(new URL('../../dist/index.js', import.meta.url)),
      },
    ],
  },
  build: {
    outDir: fileURLToPath(new URL('../dist/react/', import.meta.url)),
    emptyOutDir: true,
  },
});
