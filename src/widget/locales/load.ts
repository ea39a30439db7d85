import { en, type Strings } from './en.ts';

// The URL of the script that holds this code, captured while it is evaluated.
// An ES module knows it from import.meta.url. The IIFE build has no import.meta
// (the bundler empties it), but document.currentScript names the classic script
// being run, and only during that first synchronous run: read later (in a
// click handler) it would be null.
const SCRIPT_URL: string =
  (typeof document !== 'undefined' && (document.currentScript as HTMLScriptElement | null)?.src) ||
  import.meta.url ||
  (typeof document !== 'undefined' ? document.baseURI : '');

const cache = new Map<string, Promise<Strings>>();

/** The language part of a BCP 47 tag, lower-cased ("pt-BR" -> "pt"); "" when it is not a tag. */
export function languageOf(tag: string): string {
  const lang = tag.split(/[-_]/)[0]?.toLowerCase() ?? '';
  return /^[a-z]{2,3}$/.test(lang) ? lang : '';
}

/**
 * Where a locale module lives. From source (tests, dev server) it sits beside this
 * file as `{lang}.ts`; from a build it is `locales/{lang}.js` beside the bundle,
 * because the bundle flattens this file into `payment-widget(.iife).js`.
 */
export function localeUrl(lang: string, base: string = SCRIPT_URL): string {
  const fromSource = new URL(base).pathname.endsWith('.ts');
  return new URL(fromSource ? `./${lang}.ts` : `./locales/${lang}.js`, base).href;
}

/**
 * The strings for `tag`: English at once for `en*`, otherwise the locale module
 * loaded on first use, falling back to English (key by key, and wholly when the
 * module is missing or broken) so that a form always renders.
 */
export function loadStrings(tag: string): Promise<Strings> {
  const lang = languageOf(tag);
  if (!lang || lang === 'en') return Promise.resolve(en);
  let pending = cache.get(lang);
  if (!pending) {
    pending = Promise.resolve()
      .then(() => import(/* @vite-ignore */ localeUrl(lang)))
      .then(
        (mod: { default?: Partial<Strings> }) => ({ ...en, ...mod.default }),
        () => en,
      );
    cache.set(lang, pending);
  }
  return pending;
}

/** Fills `{name}` placeholders. */
export function format(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (match, name: string) => values[name] ?? match);
}
