// Lit asks, as each of its three modules loads, whether the webcomponents polyfills left it a
// hook on the global object (`reactiveElementPolyfillSupport`, `litHtmlPolyfillSupport`,
// `litElementPolyfillSupport`: Lit's polyfill-support.js, for a browser without shadow DOM of
// its own), and calls it. Every browser the widget supports has shadow DOM, so in the
// self-contained bundles, which carry their own Lit, those reads are first-paint bytes that
// never do anything (about 40 B gzip): this build step reads each as `undefined`, and the
// minifier drops the call with it. Nothing else of Lit changes: its hook for hydrating a server
// render stays, and so do the versions it registers. (A page that forces the ShadyDOM polyfill
// on a browser with shadow DOM of its own, as old Polymer apps could, is left to style the
// widget without the polyfill's scoping.) The package's ES entry leaves Lit to the merchant's
// bundler and is not built with this.
import type { Plugin } from 'vite';

/** A read of one of the hooks in Lit's published code: `t.litHtmlPolyfillSupport`. */
const HOOK = /\b[\w$]+\.(reactiveElement|litHtml|litElement)PolyfillSupport\b/g;

/** Lit's modules, each of which reads one of the hooks. */
const LIT = /\/node_modules\/(?:@lit\/reactive-element|lit-html|lit-element)\/[\w-]+\.js$/;

/** `code` with each read of a polyfill hook made `undefined`, and the hooks it read. */
export function dropHooks(code: string): { code: string; dropped: string[] } {
  const dropped: string[] = [];
  const rewritten = code.replace(HOOK, (_read, hook: string) => {
    dropped.push(`${hook}PolyfillSupport`);
    return 'undefined';
  });
  return { code: rewritten, dropped };
}

/** The build's step: fails the build when Lit no longer reads all three hooks so. */
export function dropLitPolyfillHooks(): Plugin {
  const dropped = new Set<string>();
  return {
    name: 'payment-widget-lit-polyfill-hooks',
    transform(code, id) {
      if (!LIT.test(id) || !code.includes('PolyfillSupport')) return null;
      const result = dropHooks(code);
      for (const hook of result.dropped) dropped.add(hook);
      return { code: result.code };
    },
    buildEnd(error) {
      // A later Lit that reads its hooks another way would keep them, unseen: it says so here.
      if (!error && dropped.size !== 3) {
        this.error(
          `Lit's polyfill hooks: read ${[...dropped].join(', ') || 'none'}, of 3 (scripts/lit-polyfill-hooks.ts)`,
        );
      }
    },
  };
}
