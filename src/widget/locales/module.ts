// The shape of a locale module (de.ts, pt.ts, and the built locales/{tag}.js beside the
// script-tag build): what each way of importing a language hands back.
import type { Strings } from './en.ts';

/**
 * A locale module: its strings, and what each region changes (in a built file, only the
 * regions that ride in it: all.ts's riders()).
 */
export interface LocaleModule {
  default?: Partial<Strings>;
  regions?: Record<string, Partial<Strings>>;
}

/** A locale's own words, and the supported locale they are for. */
export interface OwnStrings {
  locale: string;
  strings: Partial<Strings>;
  /** Why they could not load, when they could not (English then). */
  failed?: unknown;
}
