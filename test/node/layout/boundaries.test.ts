// The line between the browser's code and the server's: the browser folders import nothing of
// the server's (so no server code, key handling or Node module is bundled for a shopper), the
// server's import nothing of the browser's (so the handler and the sandbox never depend on an
// element's internals), and what both sides share (shared/, domain/, schemas/) imports neither.
// Type-only imports count: they couple the two sides as surely as values do.

import assert from 'node:assert/strict';
import { normalize } from 'node:path';
import { test } from 'node:test';
import { type Import, importsOf, sourceFiles, targetOf } from './source.ts';

type Side = 'browser' | 'server' | 'shared';

/** Each top folder of src/ and its side; a folder not listed here fails the test. */
export const SIDES: Record<string, Side> = {
  widget: 'browser',
  'next-step': 'browser',
  card: 'browser',
  typings: 'browser',
  react: 'browser',
  'index.ts': 'browser',
  server: 'server',
  sandbox: 'server',
  http: 'server',
  shared: 'shared',
  domain: 'shared',
  schemas: 'shared',
};

const ALLOWED: Record<Side, readonly Side[]> = {
  browser: ['browser', 'shared'],
  server: ['server', 'shared'],
  shared: ['shared'],
};

/** The side of a file under src/ (`src/widget/x.ts` -> browser); undefined outside src/. */
function sideOf(file: string): Side | undefined {
  const parts = normalize(file).split(/[\\/]/);
  if (parts[0] !== 'src' || parts.length < 2) return undefined;
  const side = SIDES[parts[1]!];
  if (side === undefined) throw new Error(`${file}: src/${parts[1]} has no side in SIDES`);
  return side;
}

/** The imports that cross the line, as `from -> to` lines. */
export function crossings(imports: readonly Import[]): string[] {
  const out: string[] = [];
  for (const imported of imports) {
    const target = targetOf(imported);
    if (target === undefined) continue;
    const from = sideOf(imported.file);
    const to = sideOf(target);
    if (from === undefined || to === undefined) continue;
    if (!ALLOWED[from].includes(to)) out.push(`${imported.file} (${from}) -> ${target} (${to})`);
  }
  return out;
}

test('no import crosses between the browser folders, the server folders and the shared ones', () => {
  const files = sourceFiles();
  assert.ok(files.length > 200, `only ${files.length} source files found`);
  const found = crossings(files.flatMap(importsOf));
  assert.deepEqual(found, [], `move what both sides need to src/shared/:\n${found.join('\n')}`);
});

test('each side is checked: an import across the line in either direction is found', () => {
  assert.deepEqual(
    crossings([
      { file: 'src/widget/checkout/backend.ts', specifier: '../../server/index.ts' },
      { file: 'src/card/index.ts', specifier: '../sandbox/core.ts' },
      { file: 'src/sandbox/api/checkouts.ts', specifier: '../../next-step/index.ts' },
      { file: 'src/shared/url-safety.ts', specifier: '../http/json.ts' },
      { file: 'src/widget/checkout/backend.ts', specifier: '../../shared/request-id.ts' },
      { file: 'src/server/handler.ts', specifier: 'hono' },
    ]),
    [
      'src/widget/checkout/backend.ts (browser) -> src/server/index.ts (server)',
      'src/card/index.ts (browser) -> src/sandbox/core.ts (server)',
      'src/sandbox/api/checkouts.ts (server) -> src/next-step/index.ts (browser)',
      'src/shared/url-safety.ts (shared) -> src/http/json.ts (server)',
    ],
  );
});
