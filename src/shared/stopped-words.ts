// What the widget says when a file of its own could not run, and no retry can change that: its
// bytes were not the ones built (src/widget/parts/tampering.ts; the page's guard of the
// widget's first file, src/server/page/entry-guard.ts), or the page's bundler cannot load it
// (src/widget/parts/imports.ts). Brought by what finds it, since the file that would have
// brought other words may be the one that failed. Here, shared: the server writes the guard.
export const stoppedWords = {
  errNotLoaded: 'The payment form could not be loaded',
};
