// The declarations the package ships (dist/types): the compiler writes them with
// our sources' `./x.ts` import paths, the build rewrites those to `./x.js`
// (scripts/declarations.ts) and bundles them into one per entry
// (rollup.declarations.config.mjs), keeping only the docs an editor shows. The rewrite
// and the docs kept on their own, then the built result: one file per entry and the
// chunks they share, no `.ts` path left, every relative import resolving to a shipped
// .d.ts, no declaration map, no doc left that an editor never shows, and the docs of
// what a merchant imports there.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import ts from '@typescript/typescript6';
import { dropUnseenDocs, rewriteSpecifiers } from '../../../scripts/declarations.ts';

const CASES: [string, string][] = [
  ["import './widget/define.ts';", "import './widget/define.js';"],
  ["export type * from './widget/events.ts';", "export type * from './widget/events.js';"],
  [
    "export {\n  type A,\n  mount,\n} from './widget/mount.ts';",
    "export {\n  type A,\n  mount,\n} from './widget/mount.js';",
  ],
  ['export { a } from "../card/index.ts";', 'export { a } from "../card/index.js";'],
  ["import type { X } from '../../schemas/x.ts';", "import type { X } from '../../schemas/x.js';"],
  ['type T = import("./types.ts").Action;', 'type T = import("./types.js").Action;'],
  ["type U = import( './types.ts' ).Action;", "type U = import( './types.js' ).Action;"],
  // Left alone: packages, declaration files, non-relative paths, and text that only looks like one.
  ["import { LitElement } from 'lit';", "import { LitElement } from 'lit';"],
  [
    "import type { Y } from 'some-package/file.ts';",
    "import type { Y } from 'some-package/file.ts';",
  ],
  ["import type { Z } from './shim.d.ts';", "import type { Z } from './shim.d.ts';"],
  [
    '/** Keys are those of `src/widget/locales/en.ts`. */',
    '/** Keys are those of `src/widget/locales/en.ts`. */',
  ],
  ["declare const path: './x.ts';", "declare const path: './x.ts';"],
  // A comment that reads like an import is rewritten too: harmless in a declaration.
  ["/** from './x.ts' */", "/** from './x.js' */"],
];

test('relative `.ts` import paths become `.js`, and nothing else changes', () => {
  for (const [input, expected] of CASES) {
    const output = rewriteSpecifiers(input);
    assert.equal(output, expected, input);
    // Same length: the declaration maps' columns still point at the right place.
    assert.equal(output.length, input.length, input);
  }
});

/** A bundle as rollup-plugin-dts writes one: source files' opening comments, internals. */
const BUNDLE = `import { X } from './x.js';

/**
 * A source file's opening comment.
 */

/** A. */
interface A {
	/** A's member. */
	a: string;
}
/** B, internal. */
interface B {
	/** B's member, which completions show. */
	b: X;
}
/** c. */
declare function c(b: B): A;
/** D, exported by its keyword. */
export declare const D: number;
declare global {
	/** A global. */
	var G: B;
}
/** An overload, read from any doc. @overload */
/** e. */
declare function e(): void;
/** F. */
declare class F {
	/** F's public member. */
	f: string;
	/** F's private member. */
	private _g;
	/**
	 * F's private method.
	 */
	private _h;
}
export { type A, c, e, F };
/** After everything. */
`;

test('only the docs no editor shows go: a file’s opening comment, an internal’s own doc, a private member’s, a doc after everything', () => {
  const unseen = [
    "/**\n * A source file's opening comment.\n */\n\n",
    '/** B, internal. */\n',
    "\t/** F's private member. */\n",
    "\t/**\n\t * F's private method.\n\t */\n",
    '/** After everything. */\n',
  ];
  const expected = unseen.reduce((text, doc) => text.replace(doc, ''), BUNDLE);
  assert.equal(expected.length, BUNDLE.length - unseen.join('').length);
  assert.equal(dropUnseenDocs(BUNDLE), expected);
  // A file that exports nothing by name exports all it declares: every last doc stays.
  const implicit = "import 'x';\n\n/** Opening. */\n\n/** A. */\ninterface A {}\n";
  assert.equal(dropUnseenDocs(implicit), "import 'x';\n\n/** A. */\ninterface A {}\n");
});

const TYPES = 'dist/types';
const MISSING = 'is missing: run `npm run build` first (`npm test` builds before this suite)';

function declarations(): string[] {
  return readdirSync(TYPES, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.d.ts'))
    .map((file) => join(TYPES, file));
}

test("one declaration file for each of the package's entries, and the chunks they share", () => {
  assert.ok(existsSync(TYPES), `${TYPES} ${MISSING}`);
  const { exports } = JSON.parse(readFileSync('package.json', 'utf8')) as {
    exports: Record<string, string | { types?: string }>;
  };
  const entries = Object.values(exports).flatMap((target) =>
    typeof target === 'object' && target.types ? [join(target.types)] : [],
  );
  assert.ok(entries.length >= 7, `only ${entries.length} entries with types`);
  for (const entry of entries) assert.ok(existsSync(entry), `${entry} ${MISSING}`);
  const others = declarations().filter(
    (file) =>
      !entries.includes(file) &&
      !file.startsWith(join(TYPES, 'chunks/')) &&
      // The JSX typings, which payment-widget/react's declarations import.
      file !== join(TYPES, 'typings/react.d.ts'),
  );
  assert.deepEqual(others, [], 'a declaration file that is neither an entry nor a shared chunk');
});

test('the built declarations import only `.js` paths that resolve to shipped declarations', () => {
  assert.ok(existsSync(TYPES), `${TYPES} ${MISSING}`);
  const files = declarations();
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const relative = [
      ...text.matchAll(/(?:from\s*|import\s*\(\s*|import\s+)['"](\.\.?\/[^'"]+)['"]/g),
    ];
    for (const [, path = ''] of relative) {
      assert.match(path, /\.js$/, `${file}: ${path}`);
      const target = join(dirname(file), path.replace(/\.js$/, '.d.ts'));
      assert.ok(existsSync(target), `${file}: ${path} resolves to nothing`);
    }
  }
});

test('the package ships declarations, not the TypeScript sources or maps that would need them', () => {
  const { files } = JSON.parse(readFileSync('package.json', 'utf8')) as { files: string[] };
  assert.ok(!files.includes('src'), 'package.json `files` must not ship src/');
  for (const file of declarations()) {
    assert.ok(!existsSync(`${file}.map`), `${file}.map: a map would point at a source not shipped`);
  }
});

test('the built declarations hold no doc that an editor never shows', () => {
  assert.ok(existsSync(TYPES), `${TYPES} ${MISSING}`);
  for (const file of declarations()) {
    const text = readFileSync(file, 'utf8');
    assert.equal(dropUnseenDocs(text), text, `${file} holds docs no editor shows`);
  }
});

// A doc reads alone in an editor's hover: the source's comment it leaned on ("see above") is a
// source file's opening note, which the built declarations do not carry.
test('no doc in the built declarations sends the reader above or below it', () => {
  assert.ok(existsSync(TYPES), `${TYPES} ${MISSING}`);
  for (const file of declarations()) {
    const text = readFileSync(file, 'utf8');
    for (const doc of text.match(/\/\*\*[\s\S]*?\*\//g) ?? []) {
      assert.doesNotMatch(doc, /\b(?:see|as) (?:above|below)\b/i, `${file}: ${doc}`);
    }
  }
});

test('what a merchant imports shows its docs in the editor, its options’ members too', () => {
  assert.ok(existsSync(TYPES), `${TYPES} ${MISSING}`);
  const entry = (name: string) => join(TYPES, `${name}.d.ts`);
  const names = ['index', 'server/index', 'sandbox/index', 'typings/script-tag'];
  const program = ts.createProgram(names.map(entry), {
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    types: ['node'],
    skipLibCheck: true,
  });
  const checker = program.getTypeChecker();
  const docs = (symbol: ts.Symbol | undefined) =>
    symbol ? ts.displayPartsToString(symbol.getDocumentationComment(checker)) : '';
  const exported = (file: string, name: string) => {
    const source = program.getSourceFile(entry(file));
    const module = source && checker.getSymbolAtLocation(source);
    const symbol = module && checker.getExportsOfModule(module).find((s) => s.name === name);
    return symbol && symbol.flags & ts.SymbolFlags.Alias
      ? checker.getAliasedSymbol(symbol)
      : symbol;
  };
  const member = (file: string, type: string, name: string) => {
    const symbol = exported(file, type);
    return symbol && checker.getDeclaredTypeOfSymbol(symbol).getProperty(name);
  };
  const shown: [string, ts.Symbol | undefined][] = [
    ['PaymentWidget', exported('index', 'PaymentWidget')],
    ['MountOptions.checkoutId', member('index', 'MountOptions', 'checkoutId')],
    ['toNodeListener', exported('server/index', 'toNodeListener')],
    ['createRedisStore', exported('server/index', 'createRedisStore')],
    [
      'PaymentHandlerOptions.telemetry',
      member('server/index', 'PaymentHandlerOptions', 'telemetry'),
    ],
    ['HookRun.done', member('server/index', 'HookRun', 'done')],
    // Declared on an interface the entry does not export, which SandboxOptions extends.
    ['SandboxOptions.apiKey', member('sandbox/index', 'SandboxOptions', 'apiKey')],
    [
      'the PaymentWidget global',
      checker.resolveName('PaymentWidget', undefined, ts.SymbolFlags.Value, false),
    ],
  ];
  for (const [name, symbol] of shown) assert.notEqual(docs(symbol), '', `${name} shows no doc`);
  // Every function a merchant can import says what it does when hovered.
  const undocumented = names.flatMap((file) => {
    const source = program.getSourceFile(entry(file));
    const module = source && checker.getSymbolAtLocation(source);
    return (module ? checker.getExportsOfModule(module) : [])
      .filter((s) => exported(file, s.name)!.flags & ts.SymbolFlags.Function)
      .filter((s) => docs(exported(file, s.name)) === '')
      .map((s) => `${file}: ${s.name}`);
  });
  assert.deepEqual(undocumented, [], 'exported functions without a doc comment');
});
