import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import browserBuild from './vite.config.ts';

const ENTRY = fileURLToPath(new URL('./src/index.ts', import.meta.url));

/**
 * `payment-widget/react` (`dist/react.js`): the React component alone. The widget is
 * imported from the package's own entry (`./index.js`), never copied in, so a page holds
 * one element class whichever entry it came through; React and @lit/react are the app's
 * (optional peer dependencies). Left readable like the entry: the app's bundler minifies.
 */
export default defineConfig({
  build: {
    outDir: 'dist',
    emptyOutDir: false,
    target: browserBuild.build?.target,
    minify: false,
    sourcemap: false,
    rolldownOptions: {
      external: (id, importer) =>
        id === 'react' ||
        id === '@lit/react' ||
        (importer !== undefined && fileURLToPath(new URL(id, `file://${importer}`)) === ENTRY),
      output: {
        paths: (id) => (id.endsWith('/src/index.ts') || id === ENTRY ? './index.js' : id),
        // A client component for Next.js, whatever file renders it (a server component may).
        banner: "'use client';",
        comments: { legal: true, annotation: true, jsdoc: false },
      },
    },
    lib: {
      entry: 'src/react/index.ts',
      formats: ['es'],
      fileName: () => 'react.js',
    },
  },
});
