// Where this code was loaded from, so the modules that ship beside the bundle (a locale's
// strings, a rarely needed next step) load from the same place, whichever page embeds it.
//
// An ES module knows its URL from import.meta.url. The IIFE build has no import.meta (the
// bundler empties it), but document.currentScript names the classic script being run, and
// only during that first synchronous run: read later (in a click handler) it would be null.
// So it is captured here, as the bundle is evaluated.

/** The classic <script> running the bundle: null in a module, on a server, or read later. */
export const CURRENT_SCRIPT =
  typeof document === 'undefined' ? null : (document.currentScript as HTMLScriptElement | null);

// Read as the bundle is evaluated too. Marked pure, so a build that never asks for it (the
// package's ES entry, which imports its parts as modules) leaves the read out; unmarked, the
// minifier kept it as a bare statement there (a property read may have effects).
const SCRIPT_URL: string = /* @__PURE__ */ (() =>
  CURRENT_SCRIPT?.src || import.meta.url || (globalThis.document?.baseURI ?? ''))();

/**
 * The URL of a file that ships beside the built bundle (`parts/pay.js`). Only the
 * self-contained builds load files from beside themselves (src/widget/parts/imports-beside.ts);
 * from the sources, every part is a module imported by its own path.
 */
export function besideBundle(built: string, base: string = SCRIPT_URL): string {
  return new URL(built, base).href;
}
