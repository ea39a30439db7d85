// The English words of a widget that stopped for good, with the rest of the English ones: they
// live in src/shared/stopped-words.ts, where the page's guard of the widget's first file
// (written by the server) takes them too.
export { stoppedWords } from '../../../shared/stopped-words.ts';
