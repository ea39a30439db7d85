import { importLocale } from '../parts/imports.ts';
import type { LocaleModule } from '../parts/types.ts';
import { en, type Strings } from './en.ts';
import { languageOf } from './language.ts';

export { format } from './format.ts';
export { languageOf } from './language.ts';
export type { LocaleModule };

/**
 * Every locale with strings of its own. A language's first tag is the one a bare
 * or unknown-region tag gets ("de" and "de-BE" read as "de-DE"). Each non-English
 * one is a module of its own in the build (`locales/de-CH.js`). One string, not
 * a table: these bytes ship in every bundle.
 */
export const LOCALES: readonly string[] =
  'bg-BG cs-CZ da-DK de-DE de-AT de-CH de-LU el-GR el-CY en-GB en-IE en-MT en-US es-ES es-CL es-CO et-EE fi-FI fr-FR fr-BE fr-CH fr-LU hr-HR hu-HU it-IT it-CH lt-LT lv-LV nb-NO nl-NL nl-BE pl-PL pt-PT pt-BR ro-RO sk-SK sl-SI sv-SE'.split(
    ' ',
  );

const cache = new Map<string, Promise<Strings>>();

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

/**
 * The strings for `tag`: English at once for `en*`, otherwise the locale module
 * loaded on first use, falling back to English (key by key, and wholly when the
 * module is missing or broken, which the console is told) so that a form always renders.
 */
export function loadStrings(tag: string): Promise<Strings> {
  const locale = resolveLocale(tag);
  if (locale.startsWith('en-')) return Promise.resolve(en);
  let pending = cache.get(locale);
  if (!pending) {
    const region = locale.slice(3);
    pending = Promise.resolve()
      .then(() => importLocale(locale))
      .then(
        (mod: LocaleModule) => ({ ...en, ...mod.default, ...mod.regions?.[region] }),
        (error: unknown) => {
          console.error(
            `payment-widget: the ${locale} strings could not load, so the widget shows English (${error instanceof Error ? error.message : String(error)})`,
          );
          // Not kept: the next load (another checkout, "Try again") asks again.
          cache.delete(locale);
          return en;
        },
      );
    cache.set(locale, pending);
  }
  return pending;
}

/**
 * `strings` with a merchant's own wording on top: only known keys with string
 * values count, so a typo or a stray value cannot blank a label.
 */
export function withOverrides(strings: Strings, overrides: unknown): Strings {
  if (typeof overrides !== 'object' || overrides === null) return strings;
  const merged = { ...strings };
  for (const key of Object.keys(en) as (keyof Strings)[]) {
    const value = (overrides as Record<string, unknown>)[key];
    if (typeof value === 'string') merged[key] = value;
  }
  return merged;
}

/** An amount in the locale's way of writing money; '' when there is no amount. */
export function formatMoney(locale: string, amount: unknown, currency: unknown): string {
  if (typeof amount !== 'number') return '';
  const options: Intl.NumberFormatOptions =
    typeof currency === 'string' && currency ? { style: 'currency', currency } : {};
  try {
    return new Intl.NumberFormat(locale, options).format(amount);
  } catch {
    // A malformed locale or currency must not break the form.
    return new Intl.NumberFormat('en-GB', options).format(amount);
  }
}
