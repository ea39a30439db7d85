// Size budgets: bytes are deterministic, so they are checked on every `npm test`, which
// builds before the node suite runs. Each fails when nothing is built.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { basename, join, posix } from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import {
  ALL_GZIP_BUDGET,
  DIST,
  ESM,
  ESM_ENTRY,
  englishPartFiles,
  esmFirstPaint,
  FIRST_PAINT_GZIP_BUDGET,
  IIFE,
  kib,
  LOCALE_DIR,
  LOCALE_GZIP_BUDGET,
  localeFiles,
  PARTS_DIR,
  STEP_GZIP_BUDGET,
  STEP_PART,
  sizesOfFile,
} from '../../../bench/measure.ts';
import { fileLocale, ownStrings, TAGS } from '../../../src/widget/locales/all.ts';
import type { LocaleModule } from '../../../src/widget/locales/module.ts';

const MISSING = 'is missing: run `npm run build` first (`npm test` builds before this suite)';

test(`the script-tag build, all the card form needs for its first paint, is at most ${kib(FIRST_PAINT_GZIP_BUDGET)} gzip`, (t) => {
  assert.ok(existsSync(IIFE), `${IIFE} ${MISSING}`);
  const size = sizesOfFile(IIFE);
  t.diagnostic(`${IIFE}: ${size.raw} B raw, ${size.gzip} B gzip, ${size.brotli} B brotli`);
  assert.ok(
    size.gzip <= FIRST_PAINT_GZIP_BUDGET,
    `${IIFE} is ${size.gzip} B gzip, ${size.gzip - FIRST_PAINT_GZIP_BUDGET} B over its ${FIRST_PAINT_GZIP_BUDGET} B budget`,
  );
});

/** What a bundler puts before the form's first paint from the ES entry: built once, on first use. */
let esmBuilt: ReturnType<typeof esmFirstPaint> | undefined;
const esmBuild = () => {
  esmBuilt ??= esmFirstPaint();
  return esmBuilt;
};

test(`the ES entry with Lit, as a bundler puts it before the form's first paint, is at most ${kib(FIRST_PAINT_GZIP_BUDGET)} gzip`, async (t) => {
  assert.ok(existsSync(ESM_ENTRY), `${ESM_ENTRY} ${MISSING}`);
  const size = await esmBuild();
  t.diagnostic(
    `${ESM_ENTRY}, what it imports statically and Lit: ${size.raw} B raw, ${size.gzip} B gzip (${size.files.join(', ')})`,
  );
  assert.ok(
    size.gzip <= FIRST_PAINT_GZIP_BUDGET,
    `${size.gzip} B gzip, ${size.gzip - FIRST_PAINT_GZIP_BUDGET} B over the ${FIRST_PAINT_GZIP_BUDGET} B budget`,
  );
});

test("the ES entry's first paint reads no URL of its own: only the self-contained builds load files from beside them", async () => {
  assert.ok(existsSync(ESM_ENTRY), `${ESM_ENTRY} ${MISSING}`);
  // The entry's parts and locales are import()s the merchant's bundler follows, so nothing of
  // it asks where it was loaded from (src/shared/bundle-url.ts, which a bundler drops unused).
  const { code } = await esmBuild();
  assert.ok(!/\bbaseURI\b/.test(code), "it reads document.baseURI, besideBundle()'s fallback");
});

test('the self-contained ES module is built', (t) => {
  assert.ok(existsSync(ESM), `${ESM} ${MISSING}`);
  // The script-tag build's code as an ES module, for pages without a bundler: reported.
  const esm = sizesOfFile(ESM);
  t.diagnostic(`${ESM}: ${esm.raw} B raw, ${esm.gzip} B gzip, ${esm.brotli} B brotli`);
  assert.ok(esm.raw > 0, `${ESM} is empty`);
});

test(`each lazy locale module is at most ${kib(LOCALE_GZIP_BUDGET)} gzip`, (t) => {
  const files = localeFiles();
  // One module for each locale the widget fetches (English is in the bundle): a build that
  // emitted none, or lost one, has nothing under budget to show.
  // (A locale that words everything as an earlier one does loads that one's: fileLocale.)
  const expected = TAGS.filter((tag) => !tag.startsWith('en-') && fileLocale(tag) === tag)
    .map((tag) => `${tag}.js`)
    .sort();
  assert.deepEqual(
    files.map((file) => basename(file)),
    expected,
    `${LOCALE_DIR}/ holds other modules than one per locale (${MISSING})`,
  );
  const over: string[] = [];
  for (const file of files) {
    const size = sizesOfFile(file);
    t.diagnostic(`${file}: ${size.gzip} B gzip, ${size.brotli} B brotli`);
    if (size.gzip > LOCALE_GZIP_BUDGET) over.push(`${file} (${size.gzip} B gzip)`);
  }
  assert.deepEqual(over, [], `over the ${LOCALE_GZIP_BUDGET} B budget: ${over.join(', ')}`);
});

test('a locale that words everything as another does has no file of its own: es-CO loads es-CL.js', () => {
  // Colombia's Spanish and Chile's differ from Spain's alike (src/widget/locales/es.ts).
  assert.deepEqual(ownStrings('es-CO'), ownStrings('es-CL'));
  assert.equal(fileLocale('es-CO'), 'es-CL');
  assert.ok(existsSync(join(LOCALE_DIR, 'es-CL.js')), `${LOCALE_DIR}/es-CL.js ${MISSING}`);
  assert.ok(!existsSync(join(LOCALE_DIR, 'es-CO.js')), `${LOCALE_DIR}/es-CO.js is built`);
});

test('a locale that words one thing its own way rides in its language’s file: de-CH in de-DE.js', async () => {
  // Swiss German writes "Strasse", Swiss French and Italian "NPA" (src/widget/locales/).
  for (const [tag, file] of [
    ['de-CH', 'de-DE'],
    ['fr-CH', 'fr-FR'],
    ['it-CH', 'it-IT'],
  ] as const) {
    assert.equal(fileLocale(tag), file);
    assert.ok(!existsSync(join(LOCALE_DIR, `${tag}.js`)), `${LOCALE_DIR}/${tag}.js is built`);
  }
  // Each locale's words as the widget reads them from its built file (closest.ts): the file's,
  // then its region's over them; none missing, none another locale's.
  for (const tag of TAGS.filter((own) => !own.startsWith('en-'))) {
    const file = join(LOCALE_DIR, `${fileLocale(tag)}.js`);
    assert.ok(existsSync(file), `${file} ${MISSING}`);
    const mod = (await import(pathToFileURL(file).href)) as LocaleModule;
    const words = { ...mod.default, ...mod.regions?.[tag.slice(3)] };
    assert.deepEqual(words, ownStrings(tag), `${tag} from ${basename(file)}`);
  }
});

/** The files `file` (under dist/) imports with an import() of a literal path, under dist/. */
function importedChunks(file: string): string[] {
  const code = readFileSync(join(DIST, file), 'utf8');
  // A literal path each (never a URL computed at run time, which a bundler cannot follow).
  assert.doesNotMatch(code, /import\((?!["'`])/, `${file}: an import() of a computed path`);
  return [...code.matchAll(/import\(["'`](\.\.?\/[\w./-]+\.js)["'`]\)/g)].map((m) =>
    posix.join(posix.dirname(file), m[1] ?? ''),
  );
}

test('the ES entry loads each part, and the languages part each language, through an import() a bundler sees', () => {
  assert.ok(existsSync(ESM_ENTRY), `${ESM_ENTRY} ${MISSING}`);
  const parts = importedChunks('index.js');
  const named = (chunks: string[], name: string) =>
    chunks.find((c) => c.startsWith(`chunks/${name}-`));
  for (const part of ['pay', 'step', 'languages'])
    assert.ok(named(parts, part), `${ESM_ENTRY} has no import() of its ${part} chunk: ${parts}`);
  // Each locale's file, the one the script tag loads too (locales/, not a copy in chunks/),
  // through one import() each, which the locales that share it share too.
  const languages = importedChunks(named(parts, 'languages') ?? '');
  const locales = TAGS.filter((tag) => !tag.startsWith('en-')).map(
    (tag) => `locales/${fileLocale(tag)}.js`,
  );
  assert.deepEqual(
    languages.sort(),
    [...new Set(locales)].sort(),
    'the languages chunk imports each locale file once',
  );
  for (const chunk of [...parts, ...languages])
    assert.ok(existsSync(join(DIST, chunk)), `${chunk} is not built`);
});

test(`the script-tag build with every part a page in English with every option on loads through a payment settled at once is at most ${kib(ALL_GZIP_BUDGET)} gzip`, (t) => {
  assert.ok(existsSync(IIFE) && existsSync(PARTS_DIR), `${IIFE} or ${PARTS_DIR} ${MISSING}`);
  const parts = englishPartFiles();
  assert.ok(
    parts.some((file) => file.endsWith('/pay.js')),
    `no pay part in ${PARTS_DIR}: ${parts.join(' ')}`,
  );
  const gzip = [IIFE, ...parts].map(sizesOfFile).reduce((sum, size) => sum + size.gzip, 0);
  t.diagnostic(`${IIFE} and ${parts.join(', ')}: ${gzip} B gzip`);
  assert.ok(gzip <= ALL_GZIP_BUDGET, `${gzip} B gzip, over ${ALL_GZIP_BUDGET} B`);
});

test(`the next steps' part, which a payment loads only when its answer calls for a step, is at most ${kib(STEP_GZIP_BUDGET)} gzip`, (t) => {
  assert.ok(existsSync(STEP_PART), `${STEP_PART} ${MISSING}`);
  const step = sizesOfFile(STEP_PART).gzip;
  const all = [IIFE, ...englishPartFiles()].map(sizesOfFile).reduce((sum, s) => sum + s.gzip, 0);
  // What a payment through a 3DS challenge, a bank's page or a voucher loads in all.
  t.diagnostic(`${STEP_PART}: ${step} B gzip; with the bundle and the pay part: ${all + step} B`);
  assert.ok(step <= STEP_GZIP_BUDGET, `${step} B gzip, over ${STEP_GZIP_BUDGET} B`);
});
