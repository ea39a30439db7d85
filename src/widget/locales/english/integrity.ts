// What the widget says when a file of its own (a part, a locale) is not the one built, and so
// was not run (src/widget/parts/checked-import.ts): brought by what finds it
// (src/widget/parts/controller.ts failed()), since the file that would have brought other
// words may be the one that failed.
export const integrityWords = {
  errNotLoaded: 'The payment form could not be loaded',
};
