import { fileURLToPath } from 'node:url';
import vue from '@vitejs/plugin-vue';
import { defineConfig } from 'vite';

// Served by server-example at /examples/vue/.
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/examples/vue/',
  plugins: [
    vue({
      // Tell Vue's template compiler that <payment-widget> is a custom element,
      // not a Vue component it should try to resolve.
      template: { compilerOptions: { isCustomElement: (tag) => tag === 'payment-widget' } },
    }),
  ],
  resolve: {
    // Stands in for `npm install payment-widget`: the build of this checkout
    // (`npm run build` at the top first), so the examples never lag behind it.
    alias: {
      'payment-widget': fileURLToPath(new URL('../../dist/index.js', import.meta.url)),
    },
  },
  build: {
    outDir: fileURLToPath(new URL('../dist/vue/', import.meta.url)),
    emptyOutDir: true,
  },
});
