// The package's declarations as its users see them: one .d.ts for each entry in package.json's
// `exports` (and the framework typings), where the compiler writes one for every source file.
// The compiler's output (tsconfig.build.json, its `./x.ts` paths made `./x.js` by
// scripts/declarations.ts) is bundled by rollup-plugin-dts; types two entries share sit once
// in dist/types/chunks/, so `payment-widget/server`'s checkout is `payment-widget/schemas`'
// too. scripts/build.ts runs this after the compiler and removes its output.
import { dts } from 'rollup-plugin-dts';

/** Where the compiler writes the declarations of every source file (tsconfig.build.json). */
const UNBUNDLED = 'dist/declarations';

const ENTRIES = [
  'index',
  'server/index',
  'server/testing/index',
  'sandbox/index',
  'schemas/index',
  'react/index',
  'typings/react',
  'typings/vue',
  'typings/script-tag',
];

export default {
  input: Object.fromEntries(ENTRIES.map((entry) => [entry, `${UNBUNDLED}/${entry}.d.ts`])),
  output: {
    dir: 'dist/types',
    format: 'es',
    entryFileNames: '[name].d.ts',
    chunkFileNames: (chunk) => `chunks/${chunk.name.replace(/\.d$/, '')}.d.ts`,
  },
  // Packages (lit, hono, zod, react, vue, ...) stay imports.
  external: (id) => !id.startsWith('.') && !id.startsWith('/'),
  plugins: [dts(), indentWithTabs()],
};

/**
 * The compiler indents by four spaces; a tab per level reads the same in an editor (at the
 * width its user set) and is 12 kB less of the package.
 */
function indentWithTabs() {
  return {
    name: 'indent-with-tabs',
    renderChunk: (code) => code.replace(/^(?: {4})+/gm, (spaces) => '\t'.repeat(spaces.length / 4)),
  };
}
