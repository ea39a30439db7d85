// Three features of lit-html that the widget's templates never use, left out of the
// self-contained bundles, which carry their own Lit (about 250 B gzip of the first paint):
//
// - Directives (`classMap`, `repeat`, `ref`, a directive of one's own: anything made with
//   lit-html's directive.js). Each value a template of the widget, its parts or its next
//   steps gets is text, a number, a template, a list of those, `nothing`, or an event
//   listener; lit-html asked of every one whether it was a directive (resolveDirective()),
//   and here takes it as it is.
// - MathML templates (lit-html's `mathml` tag): the widget writes HTML and SVG.
// - Bindings inside a raw-text element (<script>, <style>, <textarea>, <title>), which
//   lit-html reads apart: no template of the widget holds such an element.
//
// Each would break without a word (a directive drawn as an object, a binding in a <textarea>
// never written), so each is refused before it ships: this build step fails a build that
// imports lit-html's directive.js or async-directive.js (every directive of Lit's does), in the
// bundles and in the parts, which draw with the bundles' Lit (vite.parts.config.ts), and
// test/node/budget/lit-html-unused.test.ts fails while a template of the browser code holds a
// raw-text element. The step also fails when a piece is not found exactly once as written here
// (a later Lit), or a dropped name is left. The package's ES entry leaves Lit to the merchant's
// bundler, whole, and is not built with this.
import type { Plugin } from 'vite';
import { type Cut, cutOut } from './lit-unused.ts';

/** lit-html's module that holds each piece, as the browser build publishes it. */
const MODULE = /\/node_modules\/lit-html\/lit-html\.js$/;

/** lit-html's modules a directive is made with: a build that holds one fails. */
export const DIRECTIVE_MODULES = /\/node_modules\/lit-html\/(?:async-)?directive\.js$/;

/** The elements lit-html reads a binding inside of as raw text. */
export const RAW_TEXT_ELEMENTS = ['script', 'style', 'textarea', 'title'];

/** An identifier as Lit's minifier writes one. */
const ID = '[\\w$]+';

export const CUTS: readonly Cut[] = [
  {
    what: 'resolveDirective(): each value taken as it is',
    code: new RegExp(
      `function (${ID})\\((${ID}),(${ID}),(${ID})=\\2,(${ID})\\)\\{if\\(\\3===${ID}\\)return \\3;let ${ID}=void 0!==\\5\\?\\4\\._\\$Co\\?\\.\\[\\5\\]:\\4\\._\\$Cl;const ${ID}=${ID}\\(\\3\\)\\?void 0:\\3\\._\\$litDirective\\$;return [^;{}]*,\\3\\}`,
    ),
    to: 'function $1($2,$3){return $3}',
  },
  {
    what: "a MathML template's opening wrapper",
    code: new RegExp(`(2===${ID}\\?"<svg>":)3===${ID}\\?"<math>":""`),
    to: '$1""',
  },
  {
    what: "a MathML template's closing wrapper",
    code: new RegExp(`(2===${ID}\\?"</svg>":)3===${ID}\\?"</math>":""`),
    to: '$1""',
  },
  {
    what: 'the raw-text elements',
    code: new RegExp(`,${ID}=/\\^\\(\\?:script\\|style\\|textarea\\|title\\)\\$/i`),
    to: '',
  },
  {
    what: "the template's scan reading a raw-text element's content as text",
    code: new RegExp(
      `\\(${ID}\\.test\\((${ID})\\[2\\]\\)&&\\(${ID}=RegExp\\("</"\\+\\1\\[2\\],"g"\\)\\),(${ID}=${ID})\\)`,
    ),
    to: '($2)',
  },
  {
    what: "the bindings inside a raw-text element's content",
    code: new RegExp(
      `if\\(${ID}\\.test\\((${ID})\\.tagName\\)\\)\\{const (${ID})=\\1\\.textContent\\.split\\(${ID}\\),(${ID})=\\2\\.length-1;if\\(\\3>0\\)\\{[^{}]*\\{[^{}]*\\}[^{}]*\\}\\}`,
    ),
    to: '',
  },
];

/** Names none of which lit-html's module may hold once the pieces are out. */
export const DROPPED = [
  '_$litDirective$',
  '_$Co',
  '_$Cl',
  '_$AS',
  '_$AT',
  '<math>',
  '</math>',
  'textarea',
  'emptyScript',
];

/**
 * `code` (lit-html's lit-html.js) without the pieces; throws, naming them, when a piece is not
 * found exactly once, or a dropped name is left.
 */
export function dropUnusedHtml(code: string): string {
  return cutOut(code, CUTS, DROPPED, "lit-html's unused features (scripts/lit-html-unused.ts)");
}

/**
 * The build's step. `cut`: the self-contained bundles, which carry lit-html (fails when it was
 * not built); without it, the parts, which only refuse a directive.
 */
export function dropUnusedLitHtml({ cut }: { cut: boolean }): Plugin {
  let seen = false;
  return {
    name: 'payment-widget-lit-html-unused',
    transform(code, id) {
      if (DIRECTIVE_MODULES.test(id))
        this.error(
          `${id}: the self-contained bundles' Lit runs no directive (scripts/lit-html-unused.ts); write the value into the template instead`,
        );
      if (!cut || !MODULE.test(id)) return null;
      seen = true;
      try {
        return { code: dropUnusedHtml(code) };
      } catch (error) {
        this.error(error instanceof Error ? error.message : String(error));
      }
    },
    buildEnd(error) {
      if (cut && !error && !seen)
        this.error(
          "lit-html's unused features: lit-html was not built (scripts/lit-html-unused.ts)",
        );
    },
  };
}
