// What the languages part does for a page in another language than English: the supported
// locale closest to the page's tag (./tags.ts), and that locale's own words, its language's
// with its region's differences on top (./languages.ts, or the locale's ready-merged file
// beside the self-contained builds). ./load.ts asks for them; English asks for nothing.
import { importLanguage } from './languages.ts';
import type { OwnStrings } from './module.ts';
import { resolveLocale } from './tags.ts';

/** The locale closest to `tag`, and its own words (none for an English one). */
export async function closestStrings(tag: string): Promise<OwnStrings> {
  const locale = resolveLocale(tag);
  if (locale.startsWith('en-')) return { locale, strings: {} };
  const mod = await importLanguage(locale);
  return { locale, strings: { ...mod.default, ...mod.regions?.[locale.slice(3)] } };
}
