// Two features of Lit's ReactiveElement that the widget never uses, left out of the
// self-contained bundles, which carry their own Lit (about 230 B gzip of the first paint):
//
// - Decorators. Lit's decorators (`@property()`, `@state()`, `@customElement()`) and a
//   controller that hooks every instance (`static addInitializer()`) need a list of
//   initializers, a polyfill for Symbol.metadata and a global `litPropertyMetadata` map.
//   The widget declares its properties in a static table (src/widget/payment-widget.ts says
//   why) and adds its controllers in its constructor.
// - Reflecting a property to its attribute (`reflect: true` in that table) and the default
//   converter's way back (`toAttribute`, with the Trusted Types empty script it wrote for a
//   true Boolean). No property of the widget reflects: the host's attributes are the page's
//   own (a server render's, which hydration compares with its own). Attributes still reach
//   properties as before (`fromAttribute`).
// - An attribute read as JSON (`type: Object` or `Array`): the widget's attributes are text,
//   Booleans and Numbers; `order` takes JSON through a setter of its own.
// - A property's default kept for when its attribute is removed (`useDefault: true`): no
//   property of the widget declares one.
//
// This build step takes each piece out of Lit's published module as the bundler reads it,
// and fails the build when one is not found as written here (a later Lit), or when the
// module still names a dropped piece. test/node/budget/lit-unused.test.ts checks the bundles,
// and that no property of the widget reflects. The package's ES entry leaves Lit to the
// merchant's bundler, whole, and is not built with this.
import type { Plugin } from 'vite';

/** Lit's module that holds each piece: ReactiveElement, as the browser build publishes it. */
const MODULE = /\/node_modules\/@lit\/reactive-element\/reactive-element\.js$/;

/** An identifier as Lit's minifier writes one. */
const ID = '[\\w$]+';

/**
 * One piece taken out: its code in Lit's module (found exactly once), and why it can go; `to`,
 * what it becomes, when not nothing.
 */
export interface Cut {
  what: string;
  code: RegExp;
  to?: string;
}

export const CUTS: readonly Cut[] = [
  {
    what: 'the Symbol.metadata polyfill and the litPropertyMetadata map (decorators)',
    code: new RegExp(
      `Symbol\\.metadata\\?\\?=Symbol\\("metadata"\\),${ID}\\.litPropertyMetadata\\?\\?=new WeakMap;`,
    ),
  },
  {
    what: "finalize()'s read of the properties decorators declared",
    code: new RegExp(
      `const (${ID})=this\\[Symbol\\.metadata\\];if\\(null!==\\1\\)\\{[^{}]*litPropertyMetadata[^{}]*\\}`,
    ),
  },
  {
    what: 'static addInitializer() (decorators, controllers on every instance)',
    code: new RegExp(
      `static addInitializer\\((${ID})\\)\\{this\\._\\$Ei\\(\\),\\(this\\.${ID}\\?\\?=\\[\\]\\)\\.push\\(\\1\\)\\}`,
    ),
  },
  {
    what: "a subclass's copy of its parent's initializers",
    code: new RegExp(`void 0!==(${ID})\\.(${ID})&&\\(this\\.\\2=\\[\\.\\.\\.\\1\\.\\2\\]\\),`),
  },
  {
    what: 'each instance running the initializers',
    code: new RegExp(`,this\\.constructor\\.${ID}\\?\\.forEach\\((${ID})=>\\1\\(this\\)\\)`),
  },
  {
    what: 'writing a reflected property to its attribute (_$ET)',
    code: new RegExp(`_\\$ET\\(${ID},${ID}\\)\\{[^{}]*\\.reflect\\)\\{[^{}]*\\}\\}`),
  },
  {
    what: 'noting a reflected property as it changes',
    code: new RegExp(
      `,!0===${ID}&&this\\._\\$Em!==${ID}&&\\(this\\._\\$Eq\\?\\?=new Set\\)\\.add\\(${ID}\\)`,
    ),
  },
  {
    what: 'reflecting the noted properties after an update',
    code: new RegExp(
      `this\\._\\$Eq&&=this\\._\\$Eq\\.forEach\\((${ID})=>this\\._\\$ET\\(\\1,this\\[\\1\\]\\)\\),`,
    ),
  },
  {
    what: 'the Trusted Types empty script that toAttribute() wrote for a true Boolean',
    code: new RegExp(`,(${ID})=${ID}\\.trustedTypes,${ID}=\\1\\?\\1\\.emptyScript:""`),
  },
  {
    what: "fromAttribute()'s JSON, for a property of type Object or Array",
    code: new RegExp(
      `case Object:case Array:try\\{(${ID})=JSON\\.parse\\(${ID}\\)\\}catch\\(${ID}\\)\\{\\1=null\\}`,
    ),
  },
  {
    what: 'useDefault in the default options',
    code: /useDefault:!1,/,
  },
  {
    what: 'the options an update reads for useDefault and reflection, neither left to read',
    code: new RegExp(`(?<=\\{)useDefault:${ID},reflect:${ID},(?=wrapped:)`),
  },
  {
    what: "an attribute's removal falling back to the property's default (useDefault)",
    code: new RegExp(`\\?\\?this\\._\\$Ej\\?\\.get\\(${ID}\\)\\?\\?${ID}(?=,)`),
  },
  {
    what: 'a change to a reflected default counting as one (useDefault)',
    code: new RegExp(
      `\\|\\|${ID}\\.useDefault&&${ID}\\.reflect&&${ID}===this\\._\\$Ej\\?\\.get\\(${ID}\\)&&!this\\.hasAttribute\\(${ID}\\._\\$Eu\\(${ID},${ID}\\)\\)`,
    ),
  },
  {
    what: 'keeping the default as the property is first set (useDefault)',
    code: new RegExp(
      `${ID}&&!\\(this\\._\\$Ej\\?\\?=new Map\\)\\.has\\(${ID}\\)&&\\(this\\._\\$Ej\\.set\\(${ID},${ID}\\?\\?${ID}\\?\\?this\\[${ID}\\]\\),!0!==${ID}\\|\\|void 0!==${ID}\\)\\|\\|`,
    ),
  },
  {
    what: 'the first change of a default-kept property keeping its old value (useDefault)',
    code: new RegExp(`(?<=this\\.hasUpdated\\|\\|)${ID}\\|\\|(?=\\(${ID}=void 0\\))`),
  },
  {
    what: "the default converter's toAttribute()",
    code: new RegExp(
      `toAttribute\\(${ID},(${ID})\\)\\{switch\\(\\1\\)\\{[^{}]*\\}return ${ID}\\},`,
    ),
  },
];

/** Names none of which Lit's module may hold once the pieces are out. */
export const DROPPED = [
  'Symbol.metadata',
  'litPropertyMetadata',
  'addInitializer',
  '_$ET',
  '_$Eq',
  'toAttribute',
  'emptyScript',
  'useDefault',
  '_$Ej',
  'JSON.parse',
];

/**
 * `code` (Lit's reactive-element.js) without the pieces; throws, naming them, when a piece is
 * not found exactly once, or a dropped name is left.
 */
export function dropUnused(code: string): string {
  return cutOut(code, CUTS, DROPPED, "Lit's unused features (scripts/lit-unused.ts)");
}

/**
 * `code` with each of `cuts` made, as this file and ./lit-html-unused.ts make theirs; throws,
 * saying `whose` and naming each, when a piece is not found exactly once, or a name of
 * `dropped` is left.
 */
export function cutOut(
  code: string,
  cuts: readonly Cut[],
  dropped: readonly string[],
  whose: string,
): string {
  const wrong: string[] = [];
  let rest = code;
  for (const cut of cuts) {
    const found = rest.match(new RegExp(cut.code.source, 'g'))?.length ?? 0;
    if (found !== 1) wrong.push(`${cut.what}: found ${found} times`);
    else rest = rest.replace(cut.code, cut.to ?? '');
  }
  for (const name of dropped) if (rest.includes(name)) wrong.push(`${name} is still named`);
  if (wrong.length > 0) throw new Error(`${whose}: ${wrong.join('; ')}`);
  return rest;
}

/** The build's step: fails the build when Lit's module is not as this file expects. */
export function dropUnusedLit(): Plugin {
  let seen = false;
  return {
    name: 'payment-widget-lit-unused',
    transform(code, id) {
      if (!MODULE.test(id)) return null;
      seen = true;
      try {
        return { code: dropUnused(code) };
      } catch (error) {
        this.error(error instanceof Error ? error.message : String(error));
      }
    },
    buildEnd(error) {
      if (!error && !seen)
        this.error(
          "Lit's unused features: @lit/reactive-element was not built (scripts/lit-unused.ts)",
        );
    },
  };
}
