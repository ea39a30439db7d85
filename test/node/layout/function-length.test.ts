// No function a newcomer must scroll: every function under src/ spans at most 150 lines,
// counted from its first line (after its doc comment) to its closing brace, nested functions
// included, the way a reader meets it.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Node } from 'typescript5';
import { parse, sourceFiles, ts } from './source.ts';

const MAX_LINES = 150;
const FOLDERS = ['src/'];

/** A name for the function at `node`: its own, or the variable or property it is given to. */
function nameOf(node: Node): string {
  const named = node as Node & { name?: Node };
  if (named.name !== undefined) return named.name.getText();
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) {
    return parent.name.getText();
  }
  return '(anonymous)';
}

export interface FunctionSpan {
  file: string;
  name: string;
  line: number;
  lines: number;
}

export function functionSpans(file: string): FunctionSpan[] {
  const source = parse(file);
  const spans: FunctionSpan[] = [];
  const visit = (node: Node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body !== undefined) {
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      spans.push({ file, name: nameOf(node), line: start + 1, lines: end - start + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return spans;
}

test(`no function under ${FOLDERS.join(', ')} spans more than ${MAX_LINES} lines`, () => {
  const files = sourceFiles().filter((file) => FOLDERS.some((folder) => file.startsWith(folder)));
  assert.ok(files.length > 100, `only ${files.length} source files found`);
  const long = files
    .flatMap(functionSpans)
    .filter((span) => span.lines > MAX_LINES)
    .map((span) => `${span.file}:${span.line} ${span.name} (${span.lines} lines)`);
  assert.deepEqual(long, [], `split these:\n${long.join('\n')}`);
});

test('the count sees a long function: one line over the limit is reported', () => {
  const spans = functionSpans('test/node/layout/fixtures/long-function.ts');
  assert.deepEqual(
    spans.map(({ name, lines }) => ({ name, lines })),
    [
      { name: 'longest', lines: MAX_LINES + 1 },
      { name: 'inner', lines: 3 },
    ],
  );
});
