import { importPart } from '../parts/imports.ts';
import type { Strings } from './en.ts';
import { languageOf } from './language.ts';
import type { LocaleModule, OwnStrings } from './module.ts';

export { format, formatMoney } from './format.ts';
export { languageOf } from './language.ts';
export type { LocaleModule, OwnStrings };

const cache = new Map<string, Promise<OwnStrings>>();

/**
 * The words `tag`'s locale has of its own: none for English (whose words come with the
 * element and each part of it), else every key, from the locale's module loaded on first
 * use (with the languages part, which finds the supported locale closest to the tag); none
 * when either is missing or broken, which the console is told (and `failed` says why), so
 * that the form shows English rather than nothing. An English tag loads nothing.
 */
export function loadOwnStrings(tag: string): Promise<OwnStrings> {
  const lang = languageOf(tag);
  if (lang === 'en' || lang === '') return Promise.resolve({ locale: tag, strings: {} });
  let pending = cache.get(tag);
  if (!pending) {
    pending = importPart('languages')
      .then(({ closestStrings }) => closestStrings(tag))
      .catch((error: unknown) => {
        console.error(
          `payment-widget: the ${tag} strings could not load, so the widget shows English (${error instanceof Error ? error.message : String(error)})`,
        );
        // Not kept: the next load (another checkout, "Try again") asks again.
        cache.delete(tag);
        return { locale: 'en-GB', strings: {}, failed: error };
      });
    cache.set(tag, pending);
  }
  return pending;
}

/**
 * `strings` with a merchant's own wording on top: only known keys with string
 * values count, so a typo or a stray value cannot blank a label, and anything but an
 * object (none, null, text) changes nothing.
 */
export function withOverrides(strings: Strings, overrides: unknown): Strings {
  const merged = { ...strings };
  // The keys of what is on screen: a part's keys join once its words have arrived, and
  // the locale controller applies the overrides again then.
  for (const key of Object.keys(strings) as (keyof Strings)[]) {
    const value = (overrides as Record<string, unknown> | null | undefined)?.[key];
    if (typeof value === 'string') merged[key] = value;
  }
  return merged;
}
