// Which locales have strings of their own, and the one closest to a tag the page gives.
// The languages part's (src/widget/parts/languages.ts), with the table of their modules:
// an English page needs neither, so neither weighs on the form's first paint.

// Its own copy of languageOf (a few bytes), not the kit's: a part that shares nothing with
// the pay part is built with none of the kit, and the pay part then needs no file shared
// with it, one request and one compressed file fewer.
import { languageOf } from './language.ts';

/**
 * Every locale with strings of its own. A language's first tag is the one a bare
 * or unknown-region tag gets ("de" and "de-BE" read as "de-DE"). Each non-English
 * one is a module of its own in the build (`locales/de-CH.js`), but for one that words
 * everything as an earlier one does, which shares its file (all.ts's fileLocale()).
 */
export const LOCALES: readonly string[] =
  'bg-BG cs-CZ da-DK de-DE de-AT de-CH de-LU el-GR el-CY en-GB en-IE en-MT en-US es-ES es-CL es-CO et-EE fi-FI fr-FR fr-BE fr-CH fr-LU hr-HR hu-HU it-IT it-CH lt-LT lv-LV nb-NO nl-NL nl-BE pl-PL pt-PT pt-BR ro-RO sk-SK sl-SI sv-SE'.split(
    ' ',
  );

/**
 * The supported locale closest to `tag`: "de_ch" -> "de-CH", "pt" -> "pt-PT",
 * "fr-CA" -> "fr-FR", "de-Latn-CH" -> "de-CH"; "en-GB" for anything we have no strings for.
 */
export function resolveLocale(tag: string): string {
  const raw = languageOf(tag);
  // Norwegian reaches us as "no" too, and Nynorsk readers read Bokmål.
  const lang = raw === 'no' || raw === 'nn' ? 'nb' : raw;
  const own = LOCALES.filter((locale) => locale.startsWith(`${lang}-`));
  const parts = tag.toUpperCase().split(/[-_]/).slice(1);
  return own.find((locale) => parts.includes(locale.slice(3))) ?? own[0] ?? 'en-GB';
}
