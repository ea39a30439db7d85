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
    rolldownOptions: {
      // dist/react.js starts with "use client" for React Server Components frameworks (its
      // module is a client one there); a page bundle has no use for it, and dropping it is
      // what a client bundle should do, so the warning says nothing to act on.
      onwarn(warning, warn) {
        if (warning.code !== 'MODULE_LEVEL_DIRECTIVE') warn(warning);
      },
    },
  },
});
