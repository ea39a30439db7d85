// The declarations as the package ships them, from the compiler's output. Two passes:
//
// The compiler writes our declarations with the import paths of our sources,
// `./x.ts`, and does not rewrite them in .d.ts files (rewriteRelativeImportExtensions
// covers only emitted JavaScript). A consumer's TypeScript reads `./x.ts` only
// with allowImportingTsExtensions, so the shipped declarations say `./x.js`,
// which every module resolution maps to `./x.d.ts`. The two spellings have the
// same length, so the declaration maps stay exact.
//
// Once bundled (one file per entry), they keep only the doc comments an editor shows: the
// bundler carries every source file's opening comment (its design notes) and the docs of
// internals into files a user never reads otherwise (dropUnseenDocs).
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from '@typescript/typescript6';

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

/** Applies `change` to every .d.ts under `dir` in place; returns how many files changed. */
function rewriteEach(dir: string, change: (text: string) => string): number {
  let changed = 0;
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.d.ts')) continue;
    const path = join(entry.parentPath, entry.name);
    const text = readFileSync(path, 'utf8');
    const next = change(text);
    if (next !== text) {
      writeFileSync(path, next);
      changed += 1;
    }
  }
  return changed;
}

/** Rewrites the specifiers of every .d.ts under `dir`; returns how many files changed. */
export function rewriteDeclarations(dir: string): number {
  return rewriteEach(dir, rewriteSpecifiers);
}

/** Drops the unseen docs of every .d.ts under `dir` in place; returns how many files changed. */
export function dropUnseenDocsIn(dir: string): number {
  return rewriteEach(dir, dropUnseenDocs);
}

/** Whether `statement` exports: `export { ... }`, `export =`, or a declaration with `export`. */
function exporting(statement: ts.Statement): boolean {
  if (ts.isExportDeclaration(statement) || ts.isExportAssignment(statement)) return true;
  const modifiers = ts.canHaveModifiers(statement) ? ts.getModifiers(statement) : undefined;
  return modifiers?.some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword) ?? false;
}

/**
 * Whether a user can reach `statement` by name: exported (by keyword, or by name in the
 * file's `export { ... }`; `all` where the file exports everything), or an augmentation
 * (`declare global`, `declare module 'vue'`). Anything else counts as reachable: its docs stay.
 */
function reachable(statement: ts.Statement, exported: ReadonlySet<string> | 'all'): boolean {
  if (exported === 'all' || ts.isModuleDeclaration(statement) || exporting(statement)) return true;
  if (ts.isVariableStatement(statement)) {
    return statement.declarationList.declarations.some(
      ({ name }) => ts.isIdentifier(name) && exported.has(name.text),
    );
  }
  if (
    ts.isInterfaceDeclaration(statement) ||
    ts.isTypeAliasDeclaration(statement) ||
    ts.isFunctionDeclaration(statement) ||
    ts.isClassDeclaration(statement) ||
    ts.isEnumDeclaration(statement)
  ) {
    return statement.name !== undefined && exported.has(statement.name.text);
  }
  return true;
}

/** The names of the file's own declarations in its `export { a as B }` and `export type { C }`. */
function ownExports(source: ts.SourceFile): Set<string> {
  const names = new Set<string>();
  for (const statement of source.statements) {
    if (!ts.isExportDeclaration(statement) || statement.moduleSpecifier) continue;
    const clause = statement.exportClause;
    if (!clause || !ts.isNamedExports(clause)) continue;
    for (const { name, propertyName } of clause.elements) names.add((propertyName ?? name).text);
  }
  return names;
}

/**
 * The declaration text without the doc comments no editor shows, at the top level of the file:
 * - every doc comment but the last before a declaration (an editor shows only the last; the
 *   others are the opening comments of the source files the bundler joined, about their
 *   design), unless it carries an `@overload` tag, which TypeScript reads from any of them;
 * - the doc of a declaration the file does not export (an internal type that an exported one
 *   uses): a user cannot import it, so no editor shows its doc. The docs on its members stay,
 *   as completions show them;
 * - the doc of a class's `private` member (`private _form;`, the element's internals): only
 *   the class's own code, which is not in the package, can name it.
 * Everything else is left as it is, the docs of whatever a user can import above all.
 */
export function dropUnseenDocs(text: string): string {
  const source = ts.createSourceFile('bundle.d.ts', text, ts.ScriptTarget.Latest, false);
  // A declaration file that exports nothing by name exports every declaration in it.
  const exported = source.statements.some(exporting) ? ownExports(source) : 'all';
  const docsBefore = (pos: number) =>
    (ts.getLeadingCommentRanges(text, pos) ?? []).filter(
      (range) => text.startsWith('/**', range.pos) && range.end - range.pos > 4,
    );
  const overload = (range: ts.CommentRange) => /@overload\b/.test(text.slice(range.pos, range.end));
  const unseen: ts.CommentRange[] = [];
  for (const statement of source.statements) {
    const docs = docsBefore(statement.pos);
    const last = docs.pop();
    unseen.push(...docs.filter((doc) => !overload(doc)));
    if (last && !reachable(statement, exported)) unseen.push(last);
    if (ts.isClassDeclaration(statement)) {
      for (const member of statement.members.filter(isPrivate)) {
        unseen.push(...docsBefore(member.pos));
      }
    }
  }
  // After the last declaration, a doc belongs to nothing.
  unseen.push(...docsBefore(source.endOfFileToken.pos));
  return cut(text, unseen);
}

/** Whether `member` is `private` (a declaration file writes `#private;` without a doc). */
function isPrivate(member: ts.ClassElement): boolean {
  const modifiers = ts.canHaveModifiers(member) ? ts.getModifiers(member) : undefined;
  return modifiers?.some((modifier) => modifier.kind === ts.SyntaxKind.PrivateKeyword) ?? false;
}

/** `text` without the comments at `ranges` (in order), each with its line when it has one alone. */
function cut(text: string, ranges: readonly ts.CommentRange[]): string {
  let result = '';
  let from = 0;
  for (const { pos, end } of ranges) {
    const start = Math.max(from, text.lastIndexOf('\n', pos - 1) + 1);
    const after = /^[ \t]*(?:\n|$)/.exec(text.slice(end))?.[0];
    if (after === undefined || !/^[ \t]*$/.test(text.slice(start, pos))) {
      result += text.slice(from, pos);
      from = end;
      continue;
    }
    // Its lines, and the blank line after it when there is one before it too.
    let stop = end + after.length;
    if ((start === 0 || text.slice(0, start).endsWith('\n\n')) && text[stop] === '\n') stop += 1;
    result += text.slice(from, start);
    from = stop;
  }
  return result + text.slice(from);
}
