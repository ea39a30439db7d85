// Size budgets: bytes are deterministic, so they are checked on every
// `npm test`, which builds before the node suite runs.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { test } from 'node:test';
import {
  ALL_GZIP_BUDGET,
  DIST,
  ESM,
  ESM_ENTRY,
  IIFE,
  IIFE_GZIP_BUDGET,
  kib,
  LOCALE_DIR,
  LOCALE_GZIP_BUDGET,
  localeFiles,
  PARTS_DIR,
  sizesOfFile,
} from '../../../bench/measure.ts';
import { TAGS } from '../../../src/widget/locales/all.ts';

const MISSING = 'is missing: run `npm run build` first (`npm test` builds before this suite)';

test(`the script-tag build is at most ${kib(IIFE_GZIP_BUDGET)} gzip`, (t) => {
  assert.ok(existsSync(IIFE), `${IIFE} ${MISSING}`);
  const size = sizesOfFile(IIFE);
  t.diagnostic(`${IIFE}: ${size.raw} B raw, ${size.gzip} B gzip, ${size.brotli} B brotli`);
  assert.ok(
    size.gzip <= IIFE_GZIP_BUDGET,
    `${IIFE} is ${size.gzip} B gzip, ${size.gzip - IIFE_GZIP_BUDGET} B over its ${IIFE_GZIP_BUDGET} B budget`,
  );
});

test('the ESM entry is built', (t) => {
  assert.ok(existsSync(ESM), `${ESM} ${MISSING}`);
  // The budget is the script-tag build's; the ES entry holds the same code
  // (a merchant's bundler usually re-bundles it), so its sizes are reported here.
  const esm = sizesOfFile(ESM);
  t.diagnostic(`${ESM}: ${esm.raw} B raw, ${esm.gzip} B gzip, ${esm.brotli} B brotli`);
  assert.ok(esm.raw > 0, `${ESM} is empty`);
});

test(`each lazy locale module is at most ${kib(LOCALE_GZIP_BUDGET)} gzip`, (t) => {
  const files = localeFiles();
  // One module for each locale the widget fetches (English is in the bundle): a build that
  // emitted none, or lost one, has nothing under budget to show.
  const expected = TAGS.filter((tag) => !tag.startsWith('en-'))
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

test('the ES entry loads each part and each language through an import() a bundler sees', () => {
  assert.ok(existsSync(ESM_ENTRY), `${ESM_ENTRY} ${MISSING}`);
  const code = readFileSync(ESM_ENTRY, 'utf8');
  // A literal path each (never a URL computed at run time, which a bundler cannot follow).
  const chunks = [...code.matchAll(/import\(["'`](\.\/chunks\/[\w-]+\.js)["'`]\)/g)].map(
    (m) => m[1],
  );
  const named = (name: string) => chunks.some((c) => c?.startsWith(`./chunks/${name}-`));
  for (const part of ['outcome', 'saved-cards', 'step', 'de', 'nl', 'pt', 'el']) {
    assert.ok(
      named(part),
      `${ESM_ENTRY} has no import() of its ${part} chunk: ${chunks.join(' ')}`,
    );
  }
  for (const chunk of chunks)
    assert.ok(existsSync(join(DIST, chunk ?? '')), `${chunk} is not built`);
  assert.doesNotMatch(code, /import\((?!["'`])/, 'an import() of a computed path');
});

test(`the script-tag build with every part it may load is at most ${kib(ALL_GZIP_BUDGET)} gzip`, (t) => {
  assert.ok(existsSync(PARTS_DIR), `${PARTS_DIR} ${MISSING}`);
  // Every part but the console's words for a page's mistakes, which a correct page never loads.
  const parts = readdirSync(PARTS_DIR).filter(
    (name) => name.endsWith('.js') && name !== 'diagnostics.js',
  );
  assert.ok(parts.includes('outcome.js') && parts.includes('step.js'), `parts: ${parts.join(' ')}`);
  const all = [IIFE, ...parts.map((name) => join(PARTS_DIR, name))].map(sizesOfFile);
  const gzip = all.reduce((sum, size) => sum + size.gzip, 0);
  t.diagnostic(`${IIFE} and ${parts.length} parts: ${gzip} B gzip`);
  assert.ok(gzip <= ALL_GZIP_BUDGET, `${gzip} B gzip, over ${ALL_GZIP_BUDGET} B`);
});
