// The parts of the widget that load when they are needed, by name: what ./imports.ts and
// ./imports-beside.ts both hand back.
import type { Strings } from '../locales/en.ts';

/**
 * Each part's module. A part may export `styles` (they join the element's when it loads)
 * and `words` (its English words, under the locale's).
 */
export interface PartModules {
  /**
   * What the form does once it is on screen: the card rules as typed, Pay, the outcome,
   * the customer's saved cards.
   */
  pay: typeof import('./pay.ts');
  /** A next step (a challenge, a bank's page, a voucher): for an answer that calls for one. */
  step: typeof import('./step.ts');
  /** The locale closest to a page's tag, and its strings: for a page not in English. */
  languages: typeof import('./languages.ts');
  /** The console's words for a mistake in the page (only a page with one loads them). */
  diagnostics: typeof import('./diagnostics.ts');
}

export type PartName = keyof PartModules;

/**
 * What a build's way of loading files (./imports.ts, ./imports-beside.ts) is handed when one
 * failed: the widget, its parts, and a way to stop it for good with the words it then shows
 * (which says whether it was still running).
 */
export interface Failing {
  readonly host: HTMLElement & { readonly endpoint: string };
  load<N extends PartName>(name: N): Promise<PartModules[N]>;
  stop(words: Partial<Strings>): boolean;
}
