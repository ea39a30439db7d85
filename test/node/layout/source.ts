// What the layout checks read: every TypeScript source under src/, parsed with the
// TypeScript 5 compiler API (the `typescript5` devDependency; TypeScript 7 has no JS API).

import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

type TypeScript = typeof import('typescript5');
export const ts: TypeScript = createRequire(import.meta.url)('typescript5');

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
export const SRC = join(ROOT, 'src');

/** Every `.ts` file under `dir`, as paths relative to the repository root. */
export function sourceFiles(dir = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return sourceFiles(path);
      return entry.name.endsWith('.ts') ? [relative(ROOT, path)] : [];
    })
    .sort();
}

export function parse(file: string) {
  const text = readFileSync(join(ROOT, file), 'utf8');
  return ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
}

export interface Import {
  file: string;
  specifier: string;
}

/** Every import of `file` (static, re-export, dynamic `import()`, type-only alike). */
export function importsOf(file: string): Import[] {
  const info = ts.preProcessFile(readFileSync(join(ROOT, file), 'utf8'), true, true);
  return info.importedFiles.map(({ fileName }) => ({ file, specifier: fileName }));
}

/**
 * Whether `imported` brings only types: every statement of its file that names the specifier
 * is an `import type` or `export type` (or a `typeof import()`), so nothing of the target is
 * bundled or run. `import { type A }` is not: under `verbatimModuleSyntax` it stays an import.
 * A specifier the file does not name is not either.
 */
export function isTypeOnly({ file, specifier }: Import): boolean {
  const names = (node: import('typescript5').Node | undefined): boolean =>
    node !== undefined && ts.isStringLiteral(node) && node.text === specifier;
  let types = 0;
  let values = 0;
  const visit = (node: import('typescript5').Node): void => {
    if (ts.isImportDeclaration(node) && names(node.moduleSpecifier)) {
      if (node.importClause?.isTypeOnly) types++;
      else values++;
    } else if (ts.isExportDeclaration(node) && names(node.moduleSpecifier)) {
      if (node.isTypeOnly) types++;
      else values++;
    } else if (ts.isImportTypeNode(node)) {
      const argument = node.argument;
      if (ts.isLiteralTypeNode(argument) && names(argument.literal)) types++;
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      names(node.arguments[0])
    ) {
      values++;
    }
    ts.forEachChild(node, visit);
  };
  visit(parse(file));
  return types > 0 && values === 0;
}

/** The file a relative import names, as a path from the repository root; undefined for a package. */
export function targetOf({ file, specifier }: Import): string | undefined {
  return specifier.startsWith('.') ? join(dirname(file), specifier) : undefined;
}
