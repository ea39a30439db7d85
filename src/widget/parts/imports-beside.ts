// ./imports.ts for the self-contained builds (the script tag's, and dist/payment-widget.js),
// which vite.config.ts builds with this file in its place: each part and locale is a file
// built beside the bundle (`parts/outcome.js`, `locales/de-CH.js`), loaded from the
// bundle's own URL. The parts were built without Lit (vite.parts.config.ts): the bundle
// lends them its own, here, as it runs.
import { besideBundle } from '../../shared/bundle-url.ts';
import { languageOf } from '../locales/language.ts';
import * as kit from './kit.ts';
import { KIT } from './lend.ts';
import type { LocaleModule, PartModules, PartName } from './types.ts';

const lent = globalThis as unknown as Record<symbol, typeof kit | undefined>;
lent[KIT] ??= kit;

export function importPart<N extends PartName>(name: N): Promise<PartModules[N]> {
  return import(/* @vite-ignore */ besideBundle(`widget/parts/${name}.ts`, `./parts/${name}.js`));
}

/**
 * Where a locale module lives: `locales/{tag}.js` beside the bundle, one ready-merged file
 * per locale; from source (a dev server), the language's module `{lang}.ts`, which carries
 * its regions' differences.
 */
export function localeUrl(tag: string, base?: string): string {
  return besideBundle(`widget/locales/${languageOf(tag)}.ts`, `./locales/${tag}.js`, base);
}

export function importLocale(tag: string): Promise<LocaleModule> {
  return import(/* @vite-ignore */ localeUrl(tag));
}
