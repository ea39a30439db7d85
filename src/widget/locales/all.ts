// Every language module at once, for the build (vite.config.ts writes one
// ready-merged file per locale from these) and for tests. The widget never
// imports this file: it loads one locale at a time (./load.ts), and its English
// words part by part.
import * as bg from './bg.ts';
import * as cs from './cs.ts';
import * as da from './da.ts';
import * as de from './de.ts';
import * as el from './el.ts';
import { en, type Strings } from './en.ts';
import * as es from './es.ts';
import * as et from './et.ts';
import * as fi from './fi.ts';
import * as fr from './fr.ts';
import * as hr from './hr.ts';
import * as hu from './hu.ts';
import * as it from './it.ts';
import { type LocaleModule, loadOwnStrings } from './load.ts';
import * as lt from './lt.ts';
import * as lv from './lv.ts';
import * as nb from './nb.ts';
import * as nl from './nl.ts';
import * as pl from './pl.ts';
import * as pt from './pt.ts';
import * as ro from './ro.ts';
import * as sk from './sk.ts';
import * as sl from './sl.ts';
import * as sv from './sv.ts';
import { LOCALES } from './tags.ts';

/** The language modules by language; English is bundled with the element. */
const LANGUAGES: Readonly<Record<string, LocaleModule>> = {
  bg,
  cs,
  da,
  de,
  el,
  es,
  et,
  fi,
  fr,
  hr,
  hu,
  it,
  lt,
  lv,
  nb,
  nl,
  pl,
  pt,
  ro,
  sk,
  sl,
  sv,
};

/** Every supported tag, "bg-BG" to "sv-SE", English ones included. */
export const TAGS: readonly string[] = LOCALES;

/**
 * A locale's own strings, its language's with its region's differences on top,
 * and no English filled in: what the build writes and what tests check for gaps.
 */
export function ownStrings(tag: string): Partial<Strings> {
  const [lang = '', region = ''] = tag.split('-');
  if (lang === 'en') return en;
  const mod = LANGUAGES[lang];
  if (!mod) throw new Error(`no language module for ${tag}`);
  return { ...mod.default, ...mod.regions?.[region] };
}

/**
 * The locale whose file in the build holds `tag`'s words: the first locale's whose words are
 * all the same, its own or an earlier one's (`de-AT`: `de-DE`, `es-CO`: `es-CL`), which has
 * the file both load (the build tells the languages part so: ./files.ts).
 */
export function fileLocale(tag: string): string {
  const source = localeModuleSource(tag);
  return TAGS.find((own) => localeModuleSource(own) === source) ?? tag;
}

/** A key as an object literal writes it: bare when it is a name, quoted otherwise. */
const keyOf = (key: string) => (/^[A-Za-z_$][\w$]*$/.test(key) ? key : JSON.stringify(key));

/**
 * The source of `locales/{tag}.js` in the build: one plain object of strings, no imports,
 * its keys bare (JSON's quotes around the same names in 28 files were 4.7 kB of the package).
 */
export function localeModuleSource(tag: string): string {
  const entries = Object.entries(ownStrings(tag)).map(
    ([key, text]) => `${keyOf(key)}:${JSON.stringify(text)}`,
  );
  return `export default {${entries.join(',')}};\n`;
}

/**
 * Every string the widget shows for `tag` once all of it has loaded: the locale's own
 * (loaded as the widget loads them), English for the rest.
 */
export async function loadStrings(tag: string): Promise<Strings> {
  return { ...en, ...(await loadOwnStrings(tag)).strings };
}
