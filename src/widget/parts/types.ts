// The parts of the widget that load when they are needed, by name, and the shape of a
// locale module: what ./imports.ts and ./imports-beside.ts both hand back.
import type { Strings } from '../locales/en.ts';

/** Each part's module. */
export interface PartModules {
  /** "Payment successful", "Payment failed" and why, "Payment pending". */
  outcome: typeof import('./outcome.ts');
  /** The customer's saved cards, to pay with one. */
  'saved-cards': typeof import('./saved-cards.ts');
  /** What follows a payment that is not over yet: a 3DS challenge, a bank, a voucher. */
  step: typeof import('./step.ts');
  /** The console's words for a mistake in the page (only a page with one loads them). */
  diagnostics: typeof import('./diagnostics.ts');
}

export type PartName = keyof PartModules;

/** A locale module: its strings, and (in source only) what each region changes. */
export interface LocaleModule {
  default?: Partial<Strings>;
  regions?: Record<string, Partial<Strings>>;
}
