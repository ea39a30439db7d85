import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { builtFiles, builtIntegrity, CARRIED, sharedLocaleFiles } from './scripts/integrity.ts';
import { dropUnusedLitHtml } from './scripts/lit-html-unused.ts';
import { minifyCssTemplates } from './scripts/minify-css.ts';
import { minifyHtmlTemplates } from './scripts/minify-html.ts';
import browserBuild, { replaceModule } from './vite.config.ts';

/** Each part of the widget that loads when needed, by its `parts/{name}.js`. */
export const PARTS: Record<string, string> = {
  pay: 'src/widget/parts/pay.ts',
  step: 'src/widget/parts/step.ts',
  languages: 'src/widget/parts/languages.ts',
  diagnostics: 'src/widget/parts/diagnostics.ts',
};

/**
 * The part named by PART (scripts/build.ts builds each: `PART=pay vite build -c
 * vite.parts.config.ts`), one of the parts the self-contained builds load when needed
 * (src/widget/parts/imports-beside.ts): `parts/{name}.js` beside `payment-widget(.iife).js`,
 * one minified ES module for the same browsers. Each on its own, so that no two share a
 * chunk: a shared chunk is one more file, asked for only once the part that imports it has
 * come (a round trip later). They hold no Lit: src/widget/parts/kit-lent.ts takes the
 * bundle's own in kit.ts's place. Property names stay whole (the bundle shortens its `_`
 * names; what it hands a part has none).
 */
const part = process.env.PART ?? '';
const entry = Object.hasOwn(PARTS, part) ? PARTS[part] : undefined;
if (!entry) throw new Error(`PART=${part}: build one of ${Object.keys(PARTS).join(', ')}`);

export default defineConfig({
  plugins: [
    minifyCssTemplates(),
    minifyHtmlTemplates(),
    // The bundle's Lit, which the parts draw with, runs no directive: none may come in here.
    dropUnusedLitHtml({ cut: false }),
    replaceModule('./src/widget/parts/kit.ts', './src/widget/parts/kit-lent.ts'),
    // The stylesheets' tag (the next steps' styles import it), lent by the bundle like the kit's.
    replaceModule('./src/widget/css.ts', './src/widget/parts/kit-lent.ts'),
    // The domain's functions that the bundle holds too, lent by it like the kit's.
    replaceModule('./src/domain/checkout.ts', './src/widget/parts/domain-lent.ts'),
    replaceModule('./src/shared/record.ts', './src/widget/parts/domain-lent.ts'),
    // Each locale's ready-merged file beside the bundle, instead of each language's module.
    replaceModule('./src/widget/locales/languages.ts', './src/widget/locales/languages-beside.ts'),
    // The languages part checks each locale file against its hash (scripts/build.ts writes
    // the files first).
    builtIntegrity('src/widget/locales/integrity.ts', 'LOCALE_INTEGRITY', () =>
      builtFiles('locales'),
    ),
    // ... and loads, for a locale with no file of its own, the file with its words.
    sharedLocaleFiles(),
    // The pay part checks the parts it loads (scripts/build.ts builds them before it).
    builtIntegrity('src/widget/parts/integrity.ts', 'PART_INTEGRITY', () =>
      builtFiles('parts', CARRIED.parts[part] ?? []),
    ),
  ],
  resolve: {
    // A module shared with the bundle that takes html or svg from Lit itself takes the bundle's.
    alias: [
      {
        find: /^lit$/,
        replacement: fileURLToPath(new URL('./src/widget/parts/kit-lent.ts', import.meta.url)),
      },
    ],
  },
  build: {
    outDir: 'dist/parts',
    // One part of several: `npm run build` starts from an empty dist/.
    emptyOutDir: false,
    target: browserBuild.build?.target,
    minify: true,
    sourcemap: false,
    lib: {
      entry: { [part]: entry },
      formats: ['es'],
      fileName: (_format, name) => `${name}.js`,
    },
    rolldownOptions: {
      output: {
        // Whitespace-free like the bundle (library mode's ES output keeps it otherwise);
        // property names stay whole (see above).
        minify: { codegen: true },
        // Only the bundle loads a part, never a bundler: the marks that tell one what it may
        // drop (`/* @__PURE__ */`) are bytes nobody reads here.
        comments: { annotation: false },
      },
    },
  },
});
