import { builtinModules } from 'node:module';
import { defineConfig } from 'vite';

// The Node entry points (`payment-widget/server`, `/server/testing`, `/sandbox`, `/schemas` and the
// `payment-sandbox` CLI), built as plain ES modules for Node 22 and later (package.json
// `engines`) so that a merchant's install needs no TypeScript loader.
export default defineConfig({
  build: {
    outDir: 'dist/node',
    emptyOutDir: true,
    target: 'node22',
    ssr: true,
    minify: false,
    sourcemap: false,
    rollupOptions: {
      input: {
        server: 'src/server/index.ts',
        'server-testing': 'src/server/testing/index.ts',
        sandbox: 'src/sandbox/index.ts',
        'sandbox-cli': 'src/sandbox/cli.ts',
        schemas: 'src/schemas/index.ts',
      },
      external: [...builtinModules, /^node:/, /^zod/],
      output: {
        format: 'es',
        entryFileNames: '[name].js',
        chunkFileNames: 'chunks/[name]-[hash].js',
        // Readable code, without the sources' comments: the declarations carry the API's
        // docs, and the sources are the place to read the rest (the package stays small).
        comments: { legal: true, annotation: true, jsdoc: false },
      },
    },
  },
});
