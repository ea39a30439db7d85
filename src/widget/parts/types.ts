// The parts of the widget that load when they are needed, by name: what ./imports.ts and
// ./imports-beside.ts both hand back.

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
