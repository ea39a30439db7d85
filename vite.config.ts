import { defineConfig, type Plugin } from 'vite';
import { localeModuleSource, TAGS } from './src/widget/locales/all.ts';

/**
 * Writes `locales/{tag}.js` beside the bundles, one small ES module per
 * non-English locale (English is bundled). The widget imports them at run time
 * from its own URL (src/widget/locales/load.ts), so the IIFE and the ES build
 * share the same files, and a shopper downloads only the locale they read.
 */
function localeFiles(): Plugin {
  return {
    name: 'payment-widget-locales',
    generateBundle() {
      for (const tag of TAGS) {
        if (tag.startsWith('en-')) continue;
        this.emitFile({
          type: 'asset',
          fileName: `locales/${tag}.js`,
          source: localeModuleSource(tag),
        });
      }
    },
  };
}

/**
 * Property names the minifier may shorten in the browser bundles: a trailing
 * underscore (our convention for members private to the bundle), plus a few
 * names of objects that never leave it. Those are either shared source whose
 * Node users import it unbundled (src/card's check results and network rules)
 * or the contract between src/widget and src/next-step, too widely used in
 * tests to rename. None is a DOM, JSON, event or string key in the bundle
 * (`mode`, `values`, `retryable`, `savedCards`, `now` of Date.now... are not
 * here). A name used in an event detail, a request body, a DOM call or a locale
 * must not be listed here.
 */
export const BUNDLE_PRIVATE = new RegExp(
  `_$|^(${[
    // src/card results and rules
    'isValid',
    'isPotentiallyValid',
    'cvvLength',
    'lengths',
    'gaps',
    // src/widget internals: form state
    'submitted',
    'touched',
    'dirty',
    // the src/next-step context and its polling schedule
    'onChallenge',
    'hasRedirectUrl',
    'nextStep',
    'firstMs',
    'maxMs',
    'totalMs',
    'nudge',
    'kind',
    'container',
    // card expiry readings and formatted text
    'month',
    'year',
    'short',
    'caret',
  ].join('|')})$`,
);

// The browser build: an ES module for bundlers and one self-contained IIFE for a
// script tag (`dist/payment-widget.iife.js`, global `PaymentWidget`).
export default defineConfig({
  plugins: [localeFiles(), minifyTemplates(), litWithoutPolyfillHooks()],
  build: {
    outDir: 'dist',
    // Not emptied here: dist/node (the Node build, which `payment-sandbox` runs) lives
    // inside it, and a bare `vite build` must not delete it. `npm run build` starts clean.
    emptyOutDir: false,
    target: 'es2022',
    minify: true,
    sourcemap: false,
    rolldownOptions: {
      output: {
        // No Symbol.toStringTag on the IIFE's `PaymentWidget` global: two dozen
        // bytes that only change how the object prints in a console.
        generatedCode: { symbols: false },
        // Vite's library mode keeps the ES output's whitespace (codegen off) so the
        // merchant's bundler can read it; it minifies again anyway, and keeps the
        // /* @__PURE__ */ marks either way. Whitespace-free, the ES entry a page
        // may load straight from a CDN is as small as the IIFE.
        minify: {
          codegen: true,
          // Members named with a trailing underscore are private to the bundle
          // (src/widget, src/next-step): the minifier may shorten them like locals.
          mangleProps: { include: BUNDLE_PRIVATE },
        },
      },
    },
    lib: {
      entry: 'src/index.ts',
      name: 'PaymentWidget',
      formats: ['es', 'iife'],
      fileName: (format) => (format === 'es' ? 'payment-widget.js' : `payment-widget.${format}.js`),
    },
  },
});

/**
 * The JS minifier leaves template literals alone, so the indentation of every
 * css`` and html`` template would ship (issue 9 measured about 7 KB raw). This
 * squeezes the static parts of Lit's tagged templates in our own sources:
 * CSS loses comments and the whitespace no parser needs; HTML loses the line
 * breaks and indentation around tags, and any other run of whitespace with a
 * line break becomes one space (text and attribute lists read the same).
 */
function minifyTemplates(): Plugin {
  const html = (text: string): string =>
    text.replace(/\s*\n\s*/g, (space: string, at: number) =>
      text[at - 1] === '>' || text[at + space.length] === '<' ? '' : ' ',
    );
  const squeeze: Record<string, (text: string, first: boolean, last: boolean) => string> = {
    css: (text, first, last) => {
      let out = text
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .replace(/\s+/g, ' ')
        .replace(/ ?([{};,>]) ?/g, '$1')
        .replace(/: /g, ':')
        .replace(/;}/g, '}')
        .replace(/([ :,(])0\.(\d)/g, '$1.$2');
      if (first) out = out.trimStart();
      if (last) out = out.trimEnd();
      return out;
    },
    html,
    svg: html,
  };
  return {
    name: 'payment-widget:minify-templates',
    apply: 'build',
    enforce: 'pre',
    transform(code, id) {
      if (!/\/src\/.*\.ts$/.test(id) || !code.includes('`')) return undefined;
      const edits: [number, number, string][] = [];
      const visit = (node: unknown): void => {
        if (!node || typeof node !== 'object') return;
        if (Array.isArray(node)) {
          for (const child of node) visit(child);
          return;
        }
        // An ESTree node from the bundler's parser; only these few fields are read.
        const n = node as {
          type?: string;
          tag?: { type: string; name?: string };
          quasi?: { quasis: { start: number; value: { raw: string } }[] };
        };
        const fn = n.type === 'TaggedTemplateExpression' && n.tag?.type === 'Identifier';
        const squeezeOf = fn && n.tag?.name ? squeeze[n.tag.name] : undefined;
        if (squeezeOf && n.quasi) {
          const { quasis } = n.quasi;
          quasis.forEach((q, i) => {
            // Oxc's quasi spans include the opening ` or }; the raw text follows it.
            const start = q.start + 1;
            const raw = q.value.raw;
            if (code.slice(start, start + raw.length) !== raw) return;
            edits.push([
              start,
              start + raw.length,
              squeezeOf(raw, i === 0, i === quasis.length - 1),
            ]);
          });
        }
        for (const key in n) if (key !== 'parent') visit((n as Record<string, unknown>)[key]);
      };
      visit(this.parse(code, { lang: 'ts' }));
      if (edits.length === 0) return undefined;
      let out = code;
      for (const [start, end, text] of edits.sort((a, b) => b[0] - a[0])) {
        out = out.slice(0, start) + text + out.slice(end);
      }
      return { code: out, map: null };
    },
  };
}

/**
 * lit-html ends by calling a ShadyDOM polyfill hook and registering its version
 * on `globalThis.litHtmlVersions` (read by Lit's dev-mode warnings). The widget
 * needs neither: it requires adoptedStyleSheets, which no ShadyDOM browser has,
 * and bundles one lit-html. Dropping the two statements saves about 50 B gzip
 * (issue 9). Matched on lit-html's published build; if a new lit-html reads
 * differently this does nothing and says so.
 */
function litWithoutPolyfillHooks(): Plugin {
  const hooks =
    /(\w+)=(\w+)\.litHtmlPolyfillSupport;\1\?\.\(\w+,\w+\),\(\2\.litHtmlVersions\?\?=\[\]\)\.push\("[^"]+"\);/;
  return {
    name: 'payment-widget:lit-without-polyfill-hooks',
    apply: 'build',
    transform(code, id) {
      if (!id.endsWith('/lit-html/lit-html.js')) return undefined;
      if (!hooks.test(code)) {
        this.warn('lit-html changed: its polyfill hooks stay in the bundle (vite.config.ts)');
        return undefined;
      }
      return { code: code.replace(hooks, '$1=void 0;'), map: null };
    },
  };
}
