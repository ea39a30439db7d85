// Every part the widget loads on demand, as a dynamic import() of a literal path: a
// bundler (Vite, webpack and Next.js, Rollup) sees each one and splits it into a file of
// its own by itself, so a merchant copies no folder and sets no path. This is the table
// the sources and the package's ES entry (dist/index.js) use; each language's module is
// in the languages part's table (../locales/languages.ts). The self-contained builds (the
// script tag's, and dist/payment-widget.js) cannot split their one file this way: they
// take ./imports-beside.ts instead (vite.config.ts), which loads the same parts from files
// built beside them.
import type { CheckedFile } from './checked-import.ts';
import { importFrom } from './loader.ts';
import type { PartModules, PartName } from './types.ts';

/** Exported for a test, which stands in a loader of its own for one. */
export const PARTS: { [N in PartName]: () => Promise<PartModules[N]> } = {
  pay: () => import('./pay.ts'),
  step: () => import('./step.ts'),
  languages: () => import('./languages.ts'),
  diagnostics: () => import('./diagnostics.ts'),
};

/** The part, or a rejection, never a throw nor a wait without end (./loader.ts). */
export function importPart<N extends PartName>(name: N): Promise<PartModules[N]> {
  return importFrom(PARTS, name);
}

/**
 * The file a failed load was checking, if it was checking one: never here, where the
 * bundler that built the page checks nothing at run time (./imports-beside.ts checks each
 * part it loads).
 */
export function checkedFile(_error: unknown): CheckedFile | undefined {
  return undefined;
}
