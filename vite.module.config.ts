import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import { minifyCssTemplates } from './scripts/minify-css.ts';
import { minifyHtmlTemplates } from './scripts/minify-html.ts';
import { fileLocale, TAGS } from './src/widget/locales/all.ts';
import browserBuild, { replaceModule } from './vite.config.ts';

/**
 * The package's entry (`dist/index.js`, what `import 'payment-widget'`
 * resolves to): the widget as an ES module that imports Lit rather than holding
 * a copy. The merchant's bundler then puts one Lit in the page, shared with any
 * other Lit element there, and Node resolves Lit's own server build (which
 * brings Lit's DOM shim), so importing the widget in a server render defines
 * the element there instead of throwing. The self-contained bundles
 * (`payment-widget.js`, `payment-widget.iife.js`, vite.config.ts) stay for
 * pages without a bundler.
 *
 * Left readable and its property names unmangled: the merchant's bundler
 * minifies it, and our `_name`s could not be shortened safely here anyway,
 * because Lit's own minified members (short names on the same element) are not
 * in this file to be avoided, and the merchant's Lit may be a later 3.x.
 */
const LANGUAGES = fileURLToPath(new URL('./src/widget/locales/languages.ts', import.meta.url));
const LOCALES = fileURLToPath(new URL('./dist/locales/', import.meta.url));
const LOADER = fileURLToPath(new URL('./src/widget/parts/loader.ts', import.meta.url));

/**
 * src/widget/locales/languages.ts, as the entry ships it: each locale's ready-merged file in
 * `locales/` (written first, for the self-contained builds) as an `import()` of a literal path,
 * which the merchant's bundler splits off as it would a language module of the sources. The
 * package holds each locale's words once (a chunk per language beside them was 77 kB more).
 */
function localesBeside(): Plugin {
  const tags = TAGS.filter((tag) => !tag.startsWith('en-'));
  // One loader per file: a bundler's loader that throws is not asked again (importFrom()),
  // and one of another locale for the same file would be handed what it left behind.
  const files = tags.filter((tag) => fileLocale(tag) === tag);
  const imports = files.map((tag) => `  '${tag}': () => import('${LOCALES}${tag}.js'),`);
  const shared = tags.filter((tag) => fileLocale(tag) !== tag);
  const aliases = shared.map((tag) => `'${tag}': '${fileLocale(tag)}'`);
  return {
    name: 'payment-widget-locales-beside',
    enforce: 'pre',
    load(id) {
      if (id !== LANGUAGES) return null;
      return `import { importFrom } from '${LOADER}';
const FILES = {\n${imports.join('\n')}\n};
const SHARED = { ${aliases.join(', ')} };
export function importLanguage(locale) {
  const file = SHARED[locale] ?? locale;
  return FILES[file]
    ? importFrom(FILES, file)
    : Promise.reject(new Error(\`no strings for the locale "\${locale}"\`));
}
`;
    },
  };
}

export default defineConfig({
  // The styles' and the templates' whitespace goes here too: a merchant's bundler leaves
  // template text alone.
  plugins: [
    minifyCssTemplates(),
    minifyHtmlTemplates(),
    localesBeside(),
    // No file of the entry's is checked at run time: its diagnostics part judges none.
    replaceModule('./src/widget/parts/tampering.ts', './src/widget/parts/tampering-none.ts'),
  ],
  build: {
    outDir: 'dist',
    // Beside the other builds and `locales/`, which the widget loads from its own URL.
    emptyOutDir: false,
    target: browserBuild.build?.target,
    minify: false,
    sourcemap: false,
    rolldownOptions: {
      external: [
        /^lit(\/|$)/,
        /^@lit\//,
        /^lit-html(\/|$)/,
        /^lit-element(\/|$)/,
        new RegExp(`^${LOCALES.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`),
      ],
      checks: browserBuild.build?.rolldownOptions?.checks,
      // Without a `// src/...` line before each module's code: 2.8 kB of the package that a
      // merchant's bundler drops anyway.
      experimental: { attachDebugInfo: 'none' },
      output: {
        // The declarations carry the docs. Kept: the `@__PURE__` and
        // `@vite-ignore` marks the merchant's bundler reads.
        comments: { legal: true, annotation: true, jsdoc: false },
        // What loads on demand (src/widget/parts/imports.ts: the parts, each language),
        // in files of its own that the merchant's bundler splits off in turn.
        chunkFileNames: 'chunks/[name]-[hash].js',
        // From the languages chunk (in chunks/, as the languages part is only ever imported),
        // each locale's file beside: `../locales/{tag}.js`.
        paths: (id) => (id.startsWith(LOCALES) ? `../locales/${id.slice(LOCALES.length)}` : id),
      },
    },
    lib: {
      entry: 'src/index.ts',
      formats: ['es'],
      fileName: () => 'index.js',
    },
  },
});
