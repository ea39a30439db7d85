// Each locale file's `sha256-...` hash (`locales/de-CH.js`), which the languages part of the
// self-contained builds checks the file against before it runs (./languages-beside.ts). The
// build writes them in, once the locale files are written (scripts/integrity.ts's
// builtIntegrity() in vite.parts.config.ts); from the sources each language is a module
// (./languages.ts), so there are none here.
export const LOCALE_INTEGRITY: Readonly<Record<string, string>> = {};
