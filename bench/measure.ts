// Byte sizes as a browser downloads them, and the budgets they are held to.
// Shared by the size budget test (part of `npm test`) and `npm run bench`, so the
// two can never disagree about what "14 KiB gzip" means.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { build } from 'vite';

/**
 * What the card form needs for its first paint: the script-tag build, and the ES entry
 * with Lit (a page gets it in one round trip on a new connection). The rest loads after.
 */
export const FIRST_PAINT_GZIP_BUDGET = 14 * 1024;
/**
 * The script-tag build and every part a page in English loads with every option on, through
 * a payment the provider settles at once (the pay part, with the saved cards; not a next
 * step's part, which only an answer that calls for one loads: STEP_GZIP_BUDGET; nor the
 * languages part, which only a page in another language loads, with its locale's file, nor
 * the console's words for a page's mistakes, which a correct page never loads).
 */
export const ALL_GZIP_BUDGET = 24 * 1024;
/**
 * The next steps' part (a 3DS challenge, a bank's page, a boleto's voucher, a step shown
 * again after a reload): loaded when a payment's answer, or a checkout left pending with a
 * step open, calls for one. 64 B over 3.5 KiB since the challenge's box became a named group
 * that focus lands on as it opens (it was at 3,583 B then: the 17 B it took had nowhere to go).
 */
export const STEP_GZIP_BUDGET = 3.5 * 1024 + 64;
/**
 * Each lazily loaded locale module. It carries every key, the outcome's and the steps' too
 * (English splits its words by part; the other locales do not yet), so a page in Greek loads
 * what happens next before its form shows: 1.5 KiB until those texts grew (el-GR 1,820 B).
 */
export const LOCALE_GZIP_BUDGET = 2 * 1024;

export interface Sizes {
  raw: number;
  gzip: number;
  brotli: number;
}

/** gzip at zlib level 9 and brotli at quality 11: what a CDN serves a static file with. */
export function sizesOf(bytes: Uint8Array): Sizes {
  return {
    raw: bytes.byteLength,
    gzip: gzipSync(bytes, { level: 9 }).byteLength,
    brotli: brotliCompressSync(bytes, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 11,
        [constants.BROTLI_PARAM_SIZE_HINT]: bytes.byteLength,
      },
    }).byteLength,
  };
}

export function sizesOfFile(path: string): Sizes {
  return sizesOf(readFileSync(path));
}

/** Adds up several files that load together (e.g. a bundle and its stylesheet). */
export function sumSizes(list: Sizes[]): Sizes {
  return list.reduce((a, b) => ({
    raw: a.raw + b.raw,
    gzip: a.gzip + b.gzip,
    brotli: a.brotli + b.brotli,
  }));
}

export const DIST = 'dist';
export const IIFE = join(DIST, 'payment-widget.iife.js');
export const ESM = join(DIST, 'payment-widget.js');
/** The package's ES entry, for bundlers (Lit left as an import, its parts in chunks/). */
export const ESM_ENTRY = join(DIST, 'index.js');
/** What the self-contained builds load from beside them when needed. */
export const PARTS_DIR = join(DIST, 'parts');
/**
 * Where the widget fetches a locale from: `./locales/{lang}.js` beside the bundle
 * (see src/widget/locales/load.ts `localeUrl`).
 */
export const LOCALE_DIR = join(DIST, 'locales');

/** Every built lazy locale module; empty when the build emits none. */
export function localeFiles(dir: string = LOCALE_DIR): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith('.js'))
    .sort()
    .map((name) => join(dir, name));
}

export function kib(bytes: number): string {
  return `${(bytes / 1024).toFixed(2)} KiB`;
}

/** The parts that ALL_GZIP_BUDGET leaves out, by file (see there). */
const NOT_EVERY_PAYMENT = ['step.js', 'languages.js', 'diagnostics.js'];

/**
 * Every part beside the self-contained builds that a page in English with every option on
 * loads, through a payment the provider settles at once (see ALL_GZIP_BUDGET).
 */
export function englishPartFiles(dir: string = PARTS_DIR): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith('.js') && !NOT_EVERY_PAYMENT.includes(name))
    .sort()
    .map((name) => join(dir, name));
}

/** The next steps' part beside the self-contained builds (see STEP_GZIP_BUDGET). */
export const STEP_PART = join(PARTS_DIR, 'step.js');

/**
 * What a bundler puts before the first paint of a page that imports `payment-widget`: the
 * ES entry (dist/index.js) with the chunks it imports statically and Lit, minified as a
 * bundler minifies (property names whole), without what it imports on demand (its parts,
 * each language). A bundler's own runtime for loading those (Vite's preload helper, about
 * 0.9 KiB) is the page's, not the widget's, and is left out.
 */
export async function esmFirstPaint(
  entry: string = ESM_ENTRY,
): Promise<Sizes & { files: string[]; code: string }> {
  // A page's module that imports the widget for what it registers, as `import
  // 'payment-widget'` does: what it does not use (mount()) is left out.
  const dir = mkdtempSync(join(tmpdir(), 'payment-widget-page-'));
  const page = join(dir, 'page.js');
  writeFileSync(page, `import ${JSON.stringify(resolve(entry))};\n`);
  const outputs = (await build({
    configFile: false,
    logLevel: 'silent',
    build: {
      write: false,
      minify: true,
      lib: { entry: page, formats: ['es'], fileName: () => 'page.js' },
      rolldownOptions: { output: { minify: true } },
    },
  }).finally(() => rmSync(dir, { recursive: true, force: true }))) as {
    output: {
      type: string;
      fileName: string;
      code?: string;
      imports?: string[];
      isEntry?: boolean;
    }[];
  }[];
  const chunks = new Map(
    outputs
      .flatMap(({ output }) => output.filter((o) => o.type === 'chunk'))
      .map((c) => [c.fileName, c]),
  );
  const first = [...chunks.values()].find((c) => c.isEntry);
  if (!first) throw new Error(`no entry chunk built from ${entry}`);
  // The entry and, transitively, what it imports statically: what loads before it runs.
  const seen = new Set<string>();
  const visit = (name: string): void => {
    if (seen.has(name)) return;
    seen.add(name);
    for (const next of chunks.get(name)?.imports ?? []) visit(next);
  };
  visit(first.fileName);
  // One file, as an app's bundler makes of an entry and what it imports statically.
  const files = [...seen];
  const code = files.map((name) => chunks.get(name)?.code ?? '').join('\n');
  return { ...sizesOf(new TextEncoder().encode(code)), files, code };
}
