// Each language's module, as a dynamic import() of a literal path: a bundler (Vite, webpack
// and Next.js, Rollup) sees each one and splits it into a file of its own by itself, so a
// merchant copies no folder and sets no path. What the sources use; the package's ES entry
// (dist/index.js) imports each locale's built file the same way instead (vite.module.config.ts
// writes this module so), and the self-contained builds load and check that file from beside
// themselves (./languages-beside.ts, put in this file's place by vite.parts.config.ts).
// English is built into the element.
import { importFrom } from '../parts/loader.ts';
import type { LocaleModule } from './module.ts';

/** Exported for a test, which stands in a loader of its own for one. */
export const LANGUAGES: Record<string, () => Promise<LocaleModule>> = {
  bg: () => import('./bg.ts'),
  cs: () => import('./cs.ts'),
  da: () => import('./da.ts'),
  de: () => import('./de.ts'),
  el: () => import('./el.ts'),
  es: () => import('./es.ts'),
  et: () => import('./et.ts'),
  fi: () => import('./fi.ts'),
  fr: () => import('./fr.ts'),
  hr: () => import('./hr.ts'),
  hu: () => import('./hu.ts'),
  it: () => import('./it.ts'),
  lt: () => import('./lt.ts'),
  lv: () => import('./lv.ts'),
  nb: () => import('./nb.ts'),
  nl: () => import('./nl.ts'),
  pl: () => import('./pl.ts'),
  pt: () => import('./pt.ts'),
  ro: () => import('./ro.ts'),
  sk: () => import('./sk.ts'),
  sl: () => import('./sl.ts'),
  sv: () => import('./sv.ts'),
};

/**
 * The module of `locale`'s language (a supported locale, "de-CH"), which carries its
 * region's differences; rejects for a language we lack, or whose loader threw (a bundler's
 * under Trusted Types: ../parts/loader.ts), never a wait without end.
 */
export function importLanguage(locale: string): Promise<LocaleModule> {
  const lang = locale.slice(0, 2);
  // Indexed as is (Safari 15.0-15.3 lack Object.hasOwn): a supported locale's language is
  // two lower-case letters, never an Object.prototype member's name.
  return LANGUAGES[lang]
    ? importFrom(LANGUAGES, lang)
    : Promise.reject(new Error(`no strings for the language "${lang}"`));
}
