// Every part the widget loads on demand, as a dynamic import() of a literal path: a
// bundler (Vite, webpack and Next.js, Rollup) sees each one and splits it into a file of
// its own by itself, so a merchant copies no folder and sets no path. This is the table
// the sources and the package's ES entry (dist/index.js) use; each language's module is
// in the languages part's table (../locales/languages.ts). The self-contained builds (the
// script tag's, and dist/payment-widget.js) cannot split their one file this way: they
// take ./imports-beside.ts instead (vite.config.ts), which loads the same parts from files
// built beside them.
import { emit } from '../events.ts';
import { stoppedWords } from '../locales/english/stopped.ts';
import { importFrom, Refused } from './loader.ts';
import type { Failing, PartModules, PartName } from './types.ts';

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
 * A file that failed to load (`part`, or a locale's when none). A part whose loader threw
 * (./loader.ts) can load on this page neither now nor after any retry: the widget stops,
 * says it could not be loaded (words of its own, as the part that would bring them may be
 * the one refused), and `payment-error` says why, not retryable. A language's leaves the
 * widget in English. Anything else (no answer) is a network failure, which the caller says.
 */
export function judgeFailure(error: unknown, widget: Failing, part?: PartName): void {
  if (part && error instanceof Refused && widget.stop(stoppedWords))
    emit(widget.host, 'payment-error', {
      code: 'UNEXPECTED',
      message: error.message,
      retryable: false,
    });
}
