// The locales with no file of their own in the build, each with the locale whose file it
// loads, which words everything the same (all.ts's fileLocale(): `de-AT` loads `de-DE.js`,
// `es-CO` `es-CL.js`). The build writes them in for ./languages-beside.ts (scripts/integrity.ts's
// sharedLocaleFiles() in vite.parts.config.ts); from the sources each language is a module
// (./languages.ts), so there are none here.
export const LOCALE_FILES: Readonly<Record<string, string>> = {};
