// The element's styles are Lit `css` templates, and a template's text ships as
// written: its indentation, line breaks and comments would cost the budget a few
// hundred bytes. This build step takes out what CSS never reads and nothing else (a
// number's leading zero among it: `.5em` is `0.5em`).
//
// Why not a CSS minifier such as lightningcss: it rewrites declarations, and
// drops the first of two that set one property, which is exactly how a fallback
// for an older browser is written (`align-content: flex-start` before `start`).
// Only whitespace, comments and leading zeros go here, so the stylesheet a browser
// parses is the one in the source.
import type { Plugin } from 'vite';

/** Quoted strings, which keep every character. */
const STRING = /("(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')/;

/**
 * `css` with its comments gone, every run of whitespace one space, and no space
 * where CSS reads none: around braces, semicolons, commas and `>` (and `+` and `~`
 * in a selector), after a colon and before `!important`; no semicolon before a
 * closing brace, and no zero before a number's point. A space before a colon stays
 * (`[inert] :is(...)` is a descendant selector), and so does everything inside quotes.
 */
export function minifyCss(css: string): string {
  return css
    .split(STRING)
    .map((part, i) =>
      i % 2 === 1
        ? part
        : part
            .replace(/\/\*[\s\S]*?\*\//g, '')
            .replace(/\s+/g, ' ')
            .replace(/ ?([{};,>]) ?/g, '$1')
            // In a selector (before its `{`), the sibling combinators need no spaces either;
            // in a value, calc() needs those around its `+`.
            .replace(/[^{};]+(?={)/g, (selector) => selector.replace(/ ?([+~]) ?/g, '$1'))
            .replace(/(^|[^\w.-])0\.(\d)/g, '$1.$2')
            .replace(/: /g, ':')
            .replace(/ !important/g, '!important')
            .replace(/;}/g, '}'),
    )
    .join('')
    .trim();
}

/**
 * The tagged templates this plugin rewrites: `css` followed by a template with no
 * `${...}`, backslash or backtick inside. Anything else is left as written.
 */
const CSS_TEMPLATE = /\bcss`([^`\\$]*)`/g;

/** Minifies every plain `css\`...\`` template in the project's own modules. */
export function minifyCssTemplates(): Plugin {
  return {
    name: 'payment-widget-minify-css',
    transform(code, id) {
      if (id.includes('/node_modules/') || !/\.[cm]?[jt]s$/.test(id) || !code.includes('css`')) {
        return null;
      }
      const minified = code.replace(CSS_TEMPLATE, (_, text: string) => `css\`${minifyCss(text)}\``);
      return minified === code ? null : { code: minified };
    },
  };
}
