// Every module the widget loads on demand, as a dynamic import() of a literal path: a
// bundler (Vite, webpack and Next.js, Rollup) sees each one and splits it into a file of
// its own by itself, so a merchant copies no folder and sets no path. This is the table
// the sources and the package's ES entry (dist/index.js) use. The self-contained builds
// (the script tag's, and dist/payment-widget.js) cannot split their one file this way:
// they take ./imports-beside.ts instead (vite.config.ts), which loads the same modules
// from files built beside them.
import { languageOf } from '../locales/language.ts';
import type { LocaleModule, PartModules, PartName } from './types.ts';

const PARTS: { [N in PartName]: () => Promise<PartModules[N]> } = {
  outcome: () => import('./outcome.ts'),
  'saved-cards': () => import('./saved-cards.ts'),
  step: () => import('./step.ts'),
  diagnostics: () => import('./diagnostics.ts'),
};

/** Each language's module, which carries its regions' differences. English is built in. */
const LANGUAGES: Record<string, () => Promise<LocaleModule>> = {
  bg: () => import('../locales/bg.ts'),
  cs: () => import('../locales/cs.ts'),
  da: () => import('../locales/da.ts'),
  de: () => import('../locales/de.ts'),
  el: () => import('../locales/el.ts'),
  es: () => import('../locales/es.ts'),
  et: () => import('../locales/et.ts'),
  fi: () => import('../locales/fi.ts'),
  fr: () => import('../locales/fr.ts'),
  hr: () => import('../locales/hr.ts'),
  hu: () => import('../locales/hu.ts'),
  it: () => import('../locales/it.ts'),
  lt: () => import('../locales/lt.ts'),
  lv: () => import('../locales/lv.ts'),
  nb: () => import('../locales/nb.ts'),
  nl: () => import('../locales/nl.ts'),
  pl: () => import('../locales/pl.ts'),
  pt: () => import('../locales/pt.ts'),
  ro: () => import('../locales/ro.ts'),
  sk: () => import('../locales/sk.ts'),
  sl: () => import('../locales/sl.ts'),
  sv: () => import('../locales/sv.ts'),
};

export function importPart<N extends PartName>(name: N): Promise<PartModules[N]> {
  return PARTS[name]();
}

/** The module of `tag`'s language, which carries its region's differences; rejects for one we lack. */
export function importLocale(tag: string): Promise<LocaleModule> {
  const lang = languageOf(tag);
  // Indexed as is (Safari 15.0-15.3 lack Object.hasOwn): languageOf gives two or three
  // lower-case letters or '', never an Object.prototype member's name.
  const load = LANGUAGES[lang];
  return load ? load() : Promise.reject(new Error(`no strings for the language "${lang}"`));
}
