// No import cycle under src/: each module can be read, tested and loaded after the ones it
// imports. Type-only imports and `typeof import()` count, as they do for
// `npx madge --circular --extensions ts src`, which finds the same cycles.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type Import, importsOf, sourceFiles, targetOf } from './source.ts';

/** A cycle of relative imports for each one a depth-first walk meets, as `a.ts > b.ts > a.ts`. */
export function cycles(imports: readonly Import[]): string[] {
  const edges = new Map<string, string[]>();
  for (const imported of imports) {
    const target = targetOf(imported);
    if (target === undefined) continue;
    edges.set(imported.file, [...(edges.get(imported.file) ?? []), target]);
  }
  const found: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (file: string): void => {
    state.set(file, 'open');
    path.push(file);
    for (const next of edges.get(file) ?? []) {
      const seen = state.get(next);
      if (seen === 'open') found.push([...path.slice(path.indexOf(next)), next].join(' > '));
      else if (seen === undefined) visit(next);
    }
    path.pop();
    state.set(file, 'done');
  };
  for (const file of [...edges.keys()].sort()) if (!state.has(file)) visit(file);
  return found;
}

test('no import cycle under src/', () => {
  const files = sourceFiles();
  assert.ok(files.length > 200, `only ${files.length} source files found`);
  const found = cycles(files.flatMap(importsOf));
  assert.deepEqual(
    found,
    [],
    `break each cycle (a type may need a home of its own):\n${found.join('\n')}`,
  );
});

test('a cycle is found, through a type-only import or a typeof import() alike', () => {
  const fixture = 'test/node/layout/fixtures/type-imports.ts';
  assert.deepEqual(
    importsOf(fixture).map((i) => i.specifier),
    ['../source.ts', '../source.ts'],
  );
  assert.deepEqual(
    cycles([
      ...importsOf(fixture),
      { file: 'test/node/layout/source.ts', specifier: './fixtures/type-imports.ts' },
      { file: 'src/a/one.ts', specifier: './two.ts' },
      { file: 'src/a/two.ts', specifier: 'hono' },
    ]),
    [
      'test/node/layout/fixtures/type-imports.ts > test/node/layout/source.ts > test/node/layout/fixtures/type-imports.ts',
    ],
  );
});
