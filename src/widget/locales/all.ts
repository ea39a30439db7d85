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
 * At most this many of a locale's words may differ from an earlier locale's of its language
 * for it to ride in that one's file (as `regions`) instead of having a file of its own: Swiss
 * German's, French's and Italian's one word each (a 3 kB file each), not Belgian Dutch's seven
 * (600 B more in the file of every Dutch page).
 */
const RIDER_WORDS = 3;

/**
 * `tag`'s words that differ from `base`'s (none when they are all the same), or undefined when
 * `base` has a word `tag` lacks: a file's `regions` can add and replace words, not take any away.
 */
function wordsOver(tag: string, base: string): Partial<Strings> | undefined {
  const own: Record<string, string | undefined> = ownStrings(tag);
  const theirs: Record<string, string | undefined> = ownStrings(base);
  if (Object.keys(theirs).some((key) => own[key] === undefined)) return undefined;
  return Object.fromEntries(Object.entries(own).filter(([key, text]) => theirs[key] !== text));
}

const files = new Map<string, string>();

/**
 * The locale whose file in the build holds `tag`'s words (the build tells the languages part
 * so: ./files.ts): its own, or an earlier locale's with a file of its own whose words are all
 * the same (`de-AT`: `de-DE`, `es-CO`: `es-CL`), or else, of its language, differ in at most
 * RIDER_WORDS words, which that file carries as `regions` (`de-CH`: `de-DE`, whose file
 * carries `regions.CH`, its one word).
 */
export function fileLocale(tag: string): string {
  const known = files.get(tag);
  if (known) return known;
  const at = TAGS.indexOf(tag);
  const earlier = (at < 0 ? TAGS : TAGS.slice(0, at)).filter((own) => fileLocale(own) === own);
  const size = (base: string) => {
    const over = wordsOver(tag, base);
    return over ? Object.keys(over).length : Number.POSITIVE_INFINITY;
  };
  const file =
    earlier.find((base) => size(base) === 0) ??
    earlier.find((base) => base.slice(0, 2) === tag.slice(0, 2) && size(base) <= RIDER_WORDS) ??
    tag;
  files.set(tag, file);
  return file;
}

/**
 * What `tag`'s file carries for the locales that ride in it: each one's region (`CH`) and its
 * words that differ from `tag`'s (the widget puts them over the file's, ./closest.ts).
 */
export function riders(tag: string): Record<string, Partial<Strings>> {
  const regions: Record<string, Partial<Strings>> = {};
  for (const own of TAGS) {
    const over = own !== tag && fileLocale(own) === tag ? wordsOver(own, tag) : undefined;
    if (over && Object.keys(over).length > 0) regions[own.slice(3)] = over;
  }
  return regions;
}

/** A key as an object literal writes it: bare when it is a name, quoted otherwise. */
const keyOf = (key: string) => (/^[A-Za-z_$][\w$]*$/.test(key) ? key : JSON.stringify(key));

/** An object literal of strings, its keys bare. */
const literal = (strings: Partial<Strings>) =>
  `{${Object.entries(strings)
    .map(([key, text]) => `${keyOf(key)}:${JSON.stringify(text)}`)
    .join(',')}}`;

/**
 * The source of `locales/{tag}.js` in the build: one plain object of strings, no imports,
 * its keys bare (JSON's quotes around the same names in 28 files were 4.7 kB of the package),
 * and, when locales ride in it, `regions`: their words that differ, by region.
 */
export function localeModuleSource(tag: string): string {
  const regions = Object.entries(riders(tag)).map(([region, over]) => `${region}:${literal(over)}`);
  const carried = regions.length > 0 ? `export const regions = {${regions.join(',')}};\n` : '';
  return `export default ${literal(ownStrings(tag))};\n${carried}`;
}

/**
 * Every string the widget shows for `tag` once all of it has loaded: the locale's own
 * (loaded as the widget loads them), English for the rest.
 */
export async function loadStrings(tag: string): Promise<Strings> {
  return { ...en, ...(await loadOwnStrings(tag)).strings };
}
