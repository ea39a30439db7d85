// Where this code was loaded from, so the modules that ship beside the bundle (a locale's
// strings, a rarely needed next step) load from the same place, whichever page embeds it.
//
// An ES module knows its URL from import.meta.url. The IIFE build has no import.meta (the
// bundler empties it), but document.currentScript names the classic script being run, and
// only during that first synchronous run: read later (in a click handler) it would be null.
// So it is captured here, as the bundle is evaluated.
const SCRIPT_URL: string =
  (typeof document !== 'undefined' && (document.currentScript as HTMLScriptElement | null)?.src) ||
  import.meta.url ||
  (typeof document !== 'undefined' ? document.baseURI : '');

/**
 * The URL of a module that ships beside the bundle. From a build, the file `built` beside it
 * (`locales/de-DE.js`); from source (tests, a dev server), where `base` is a `.ts` file under
 * `src/`, the module `source` named from `src/` (`widget/locales/de.ts`): the bundle flattens
 * every source file into itself, so only there do they stand apart.
 */
export function besideBundle(source: string, built: string, base: string = SCRIPT_URL): string {
  const { pathname } = new URL(base);
  if (!pathname.endsWith('.ts')) return new URL(built, base).href;
  return new URL(`${pathname.slice(0, pathname.lastIndexOf('/src/'))}/src/${source}`, base).href;
}
