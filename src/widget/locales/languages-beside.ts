// ./languages.ts for the self-contained builds (the script tag's, and dist/payment-widget.js):
// each locale is one ready-merged file beside the bundle (`locales/de-CH.js`), and this
// module, built as `parts/languages.js` beside the bundle too, finds it from its own URL.

import type { LocaleModule } from './module.ts';

/** Where `locale`'s file lives: `locales/{locale}.js`, beside the `parts/` folder at `base`. */
export function localeUrl(locale: string, base: string = import.meta.url): string {
  return new URL(`../locales/${locale}.js`, base).href;
}

export function importLanguage(locale: string): Promise<LocaleModule> {
  return import(/* @vite-ignore */ localeUrl(locale));
}
