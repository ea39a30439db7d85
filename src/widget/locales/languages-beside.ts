// ./languages.ts for the self-contained builds (the script tag's, and dist/payment-widget.js):
// each locale is one ready-merged file beside the bundle (`locales/de-CH.js`), and this
// module, built as `parts/languages.js` beside the bundle too, finds it from its own URL and
// runs it only when its bytes are the ones built (the bundle's importChecked(), against the
// hash the build wrote into ./integrity.ts).
import { importChecked } from '../parts/kit.ts';
import { LOCALE_FILES } from './files.ts';
import { LOCALE_INTEGRITY } from './integrity.ts';
import type { LocaleModule } from './module.ts';

/** Where `locale`'s file lives: `locales/{locale}.js`, beside the `parts/` folder at `base`. */
export function localeUrl(locale: string, base: string = import.meta.url): string {
  return new URL(`../locales/${locale}.js`, base).href;
}

/** `locale`'s file, or, when it has none, the file of the locale with the same words. */
export function importLanguage(locale: string): Promise<LocaleModule> {
  // Indexed as is: a supported locale ("es-CO") is never an Object.prototype member's name.
  const file = LOCALE_FILES[locale] ?? locale;
  return importChecked(localeUrl(file), LOCALE_INTEGRITY[file] as string);
}
