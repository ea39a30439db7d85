// What a page in another language than English needs before its form shows: the locale
// closest to its tag, and that locale's strings (../locales/tags.ts, ../locales/languages.ts).
// Asked for by the locale's load (../locales/load.ts) at once, beside the checkout's.
export { closestStrings } from '../locales/closest.ts';
