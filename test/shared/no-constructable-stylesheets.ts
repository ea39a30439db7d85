// What a browser without constructable stylesheets lacks (Safari and iOS before
// 16.4, Firefox before 101): no adoptedStyleSheets, no replace/replaceSync, and
// `new CSSStyleSheet()` throws as it does there. Lit decides how to style once,
// when it loads, so this must run before it. Self-contained (no import, no
// closure): Playwright serialises it for `page.addInitScript`, and the browser
// suite calls it first thing in a page of its own.

export function removeConstructableStylesheets(): void {
  const members = (target: object) => target as Record<string, unknown>;
  delete members(Document.prototype).adoptedStyleSheets;
  delete members(ShadowRoot.prototype).adoptedStyleSheets;
  delete members(CSSStyleSheet.prototype).replace;
  delete members(CSSStyleSheet.prototype).replaceSync;
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
}
