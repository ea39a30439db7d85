// The compiler writes our declarations with the import paths of our sources,
// `./x.ts`, and does not rewrite them in .d.ts files (rewriteRelativeImportExtensions
// covers only emitted JavaScript). A consumer's TypeScript reads `./x.ts` only
// with allowImportingTsExtensions, so the shipped declarations say `./x.js`,
// which every module resolution maps to `./x.d.ts`. The two spellings have the
// same length, so the declaration maps stay exact.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A relative module specifier ending in `.ts` (not `.d.ts`) where a declaration
 * file can hold one: `from '...'`, `import '...'`, `import('...')`.
 */
const SPECIFIER = /(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(['"])(\.\.?\/[^'"\n]*?)(?<!\.d)\.ts\2/g;

/** The declaration text with every relative `./x.ts` import path made `./x.js`. */
export function rewriteSpecifiers(text: string): string {
  return text.replace(
    SPECIFIER,
    (_, keyword, quote, path) => `${keyword}${quote}${path}.js${quote}`,
  );
}

/** Rewrites every .d.ts under `dir` in place; returns how many files changed. */
export function rewriteDeclarations(dir: string): number {
  let changed = 0;
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.d.ts')) continue;
    const path = join(entry.parentPath, entry.name);
    const text = readFileSync(path, 'utf8');
    const next = rewriteSpecifiers(text);
    if (next !== text) {
      writeFileSync(path, next);
      changed += 1;
    }
  }
  return changed;
}
