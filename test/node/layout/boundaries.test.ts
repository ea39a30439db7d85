// The line between the browser's code and the server's: the browser folders import nothing of
// the server's (so no server code, key handling or Node module is bundled for a shopper), the
// server's import nothing of the browser's (so the handler and the sandbox never depend on an
// element's internals), and what both sides share (shared/, domain/, schemas/) imports neither.
// Type-only imports count: they couple the two sides as surely as values do. One exception,
// by name: the sandbox's dashboard (browser code) reads the JSON its sandbox writes, so it may
// import the sandbox's types, as types only (nothing of the server is bundled into the page).
//
// And inside the handler (src/server/), imports run one way, down its layers (LAYERS below,
// as src/server/README.md, "Layout", says them).

import assert from 'node:assert/strict';
import { normalize } from 'node:path';
import { test } from 'node:test';
import { type Import, importsOf, isTypeOnly, sourceFiles, targetOf } from './source.ts';

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

/** The sandbox's dashboard: the page's script, built for the browser from this folder. */
const DASHBOARD = 'src/sandbox/dashboard/';

/** The side of a file under src/ (`src/widget/x.ts` -> browser); undefined outside src/. */
function sideOf(file: string): Side | undefined {
  const parts = normalize(file).split(/[\\/]/);
  if (parts[0] !== 'src' || parts.length < 2) return undefined;
  if (parts.join('/').startsWith(DASHBOARD)) return 'browser';
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
    if (ALLOWED[from].includes(to) || dashboardReadsTypes(imported, target)) continue;
    out.push(`${imported.file} (${from}) -> ${target} (${to})`);
  }
  return out;
}

/** The dashboard's one way across: the sandbox's types, as types only. */
function dashboardReadsTypes(imported: Import, target: string): boolean {
  const file = normalize(imported.file).split(/[\\/]/).join('/');
  const to = normalize(target).split(/[\\/]/).join('/');
  return file.startsWith(DASHBOARD) && to.startsWith('src/sandbox/') && isTypeOnly(imported);
}

/**
 * The handler's parts, lowest first: a file imports its own part and the parts of the layers
 * below, never one of its own layer or above. So the routes and middleware build on the
 * baskets, outcomes, guards, provider client and store, and none of those knows a route.
 */
export const LAYERS: readonly (readonly string[])[] = [
  ['types.ts'],
  ['store/', 'provider/'],
  ['errors.ts', 'outcomes/'],
  ['telemetry/'],
  ['page/'],
  ['options/'],
  ['guards/', 'baskets/'],
  ['middleware/'],
  ['routes/'],
  ['handler.ts', 'testing/'],
  ['index.ts'],
];

const SERVER = 'src/server/';

/** A file's part of the handler (`routes/`, `types.ts`) and its layer; undefined outside it. */
function partOf(file: string): { part: string; layer: number } | undefined {
  const path = normalize(file).split(/[\\/]/).join('/');
  if (!path.startsWith(SERVER)) return undefined;
  const rest = path.slice(SERVER.length);
  const part = rest.includes('/') ? `${rest.slice(0, rest.indexOf('/'))}/` : rest;
  const layer = LAYERS.findIndex((parts) => parts.includes(part));
  if (layer < 0) throw new Error(`${file}: ${SERVER}${part} has no layer in LAYERS`);
  return { part, layer };
}

/** The imports inside the handler that go up or across its layers, as `from -> to` lines. */
export function upward(imports: readonly Import[]): string[] {
  const out: string[] = [];
  for (const imported of imports) {
    const target = targetOf(imported);
    if (target === undefined) continue;
    const from = partOf(imported.file);
    const to = partOf(target);
    if (from === undefined || to === undefined || from.part === to.part) continue;
    if (to.layer < from.layer) continue;
    out.push(`${imported.file} (${from.part}) -> ${target} (${to.part})`);
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

test("the dashboard is browser code: it takes the sandbox's types, and nothing else of it", () => {
  const fixture = 'test/node/layout/fixtures/type-only.ts';
  assert.deepEqual(
    importsOf(fixture).map((i) => [i.specifier, isTypeOnly(i)]),
    [
      ['../source.ts', true],
      ['./type-imports.ts', true],
      ['../cycles.test.ts', false],
      ['../boundaries.test.ts', false],
      ['../function-length.test.ts', false],
      ['../source.ts', true],
    ],
  );
  assert.deepEqual(
    crossings([
      // Its types, as the dashboard imports them: allowed.
      { file: 'src/sandbox/dashboard/types.ts', specifier: '../state/records.ts' },
      // What it does not import as a type only: refused, as is anything of the handler's.
      { file: 'src/sandbox/dashboard/api.ts', specifier: '../core.ts' },
      { file: 'src/sandbox/dashboard/types.ts', specifier: '../../server/index.ts' },
      { file: 'src/sandbox/dashboard/app.ts', specifier: '../../widget/events.ts' },
    ]),
    [
      'src/sandbox/dashboard/api.ts (browser) -> src/sandbox/core.ts (server)',
      'src/sandbox/dashboard/types.ts (browser) -> src/server/index.ts (server)',
    ],
  );
});

test('inside the handler, imports run down its layers', () => {
  const files = sourceFiles().filter((file) => file.startsWith('src/server/'));
  assert.ok(files.length > 50, `only ${files.length} handler files found`);
  const found = upward(files.flatMap(importsOf));
  assert.deepEqual(
    found,
    [],
    `each import goes to a part of a lower layer (LAYERS; src/server/README.md, "Layout"):\n${found.join('\n')}`,
  );
});

test("an import up or across the handler's layers is found", () => {
  assert.deepEqual(
    upward([
      { file: 'src/server/outcomes/open-steps.ts', specifier: '../routes/answer.ts' },
      { file: 'src/server/store/memory.ts', specifier: '../provider/errors.ts' },
      { file: 'src/server/types.ts', specifier: './errors.ts' },
      { file: 'src/server/routes/checkouts.ts', specifier: '../baskets/baskets.ts' },
      { file: 'src/server/routes/checkouts.ts', specifier: './context.ts' },
      { file: 'src/server/outcomes/report.ts', specifier: '../../shared/record.ts' },
    ]),
    [
      'src/server/outcomes/open-steps.ts (outcomes/) -> src/server/routes/answer.ts (routes/)',
      'src/server/store/memory.ts (store/) -> src/server/provider/errors.ts (provider/)',
      'src/server/types.ts (types.ts) -> src/server/errors.ts (errors.ts)',
    ],
  );
});
