// Turns this page into a browser without constructable stylesheets (Safari and
// iOS before 16.4, Firefox before 101): no adoptedStyleSheets, no
// replace/replaceSync, and `new CSSStyleSheet()` throws as it does there. Lit
// decides how to style once, when it loads, so this must run before it: import
// it first, in a test file of its own (each test file gets a fresh page).

// biome-ignore lint/suspicious/noExplicitAny: deleting platform members needs an untyped view
const unsafe = (target: object): any => target;
delete unsafe(Document.prototype).adoptedStyleSheets;
delete unsafe(ShadowRoot.prototype).adoptedStyleSheets;
delete unsafe(CSSStyleSheet.prototype).replace;
delete unsafe(CSSStyleSheet.prototype).replaceSync;

const native = CSSStyleSheet;
function IllegalCSSStyleSheet(): never {
  throw new TypeError('Illegal constructor');
}
// Same prototype: `sheet instanceof CSSStyleSheet` still holds for the page's own sheets.
IllegalCSSStyleSheet.prototype = native.prototype;
Object.defineProperty(window, 'CSSStyleSheet', {
  value: IllegalCSSStyleSheet,
  configurable: true,
  writable: true,
});
