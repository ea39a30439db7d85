// Size budgets: bytes are deterministic, so they are checked on every
// `npm test`, which builds before the node suite runs.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { basename } from 'node:path';
import { test } from 'node:test';
import {
  ESM,
  IIFE,
  IIFE_GZIP_BUDGET,
  kib,
  LOCALE_DIR,
  LOCALE_GZIP_BUDGET,
  localeFiles,
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
