// What the widget says when a file of its own (a part, a locale) could not run, and no retry
// can change that: its bytes were not the ones built (src/widget/parts/tampering.ts), or the
// page's bundler cannot load it (src/widget/parts/imports.ts). Brought by what finds it, since
// the file that would have brought other words may be the one that failed.
export const stoppedWords = {
  errNotLoaded: 'The payment form could not be loaded',
};
