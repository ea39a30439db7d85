// The package as a merchant's toolchain takes it: `npm pack`, installed from the
// tarball into temporary projects outside this checkout, type-checked by
// TypeScript 5 under strict flags with exactOptionalPropertyTypes (module
// resolution `bundler` and `nodenext`, a Node backend without the DOM library,
// React 19 JSX, Vue templates through vue-tsc), every entry imported in Node, and
// the package linted by publint and Are the Types Wrong; docs/server.md's and docs/stores.md's
// samples type-checked as pasted, with the database clients npm gives. Nothing of the package
// is read from src/: only what the tarball holds (the sandbox, the provider the
// edge-runtime test pays through, comes from this checkout).
//
// Two projects check every declaration we ship with skipLibCheck off: the
// bundler one (the widget's entries) and the Node backend (the server's); the
// others keep skipLibCheck on, as most apps do, because checking all of
// @types/node, zod and Vue again costs tens of seconds and finds nothing of ours.
// The fixtures' `@ts-expect-error` lines make sure the types are not `any`.
//
// The projects install with `--prefer-offline` at the versions the main install
// has (TypeScript 5 is its `typescript5` devDependency), so npm serves them from
// its cache; vue-tsc is pinned here. The second project (React, Vue) apart from
// the first means the framework typings are proven to cost an app without
// React or Vue nothing. The docs' samples are checked in the first project, beside
// the database clients they import, which none of the package's files reads, rather
// than in a third install of the tarball (about 8 s of CPU, 5 to 16 s alone).
// Set KEEP_CONSUMER=1 to keep the projects for a look (their folder is printed).
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { runInNewContext } from 'node:vm';
import { build } from 'esbuild';
import { createSandbox } from '../../src/sandbox/index.ts';
import { cardBody } from '../node/support/cards.ts';
import { type TemporaryFolder, temporaryFolder } from '../node/support/children.ts';
import { installProject, PACKAGE, packProject, ROOT, type Run, run } from '../shared/packed.ts';

const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));
const VUE_TSC = '3.3.14';

function version(name: string): string {
  const manifest = join(ROOT, 'node_modules', name, 'package.json');
  return (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
}

/** Fails with the compiler's count and first errors, which say what a consumer would see. */
function assertTypeChecks(result: Run, what: string): void {
  const errors = result.output.split('\n').filter((line) => /error TS\d+/.test(line));
  assert.equal(
    result.status,
    0,
    `${what}: ${errors.length} type errors\n${(errors.length > 0 ? errors : [result.output]).slice(0, 15).join('\n')}`,
  );
  assert.deepEqual(errors, [], what);
}

/** The README's typed snippets, type-checked here beside the fixtures. */
const SNIPPETS: Record<string, [from: string, to: string][]> = {
  plain: [
    ['docs/README-snippets/npm-typescript.ts', 'src/readme.ts'],
    ['docs/README-snippets/backend.ts', 'src/readme-backend.ts'],
  ],
  frameworks: [
    ['docs/README-snippets/npm-react.tsx', 'src/readme-react.tsx'],
    ['docs/README-snippets/npm-vue.vue', 'src/ReadmeVue.vue'],
  ],
};

let folder: TemporaryFolder | undefined;
let workspace = '';
let tarball = '';
let packed: string[] = [];
let bytes = new Map<string, number>();
let packedBytes = 0;
let unpackedBytes = 0;

function project(name: string, devDependencies: Record<string, string>): string {
  const dir = join(workspace, name);
  cpSync(join(FIXTURES, name), dir, { recursive: true });
  for (const [from, to] of SNIPPETS[name] ?? []) cpSync(join(ROOT, from), join(dir, to));
  installProject(dir, tarball, { devDependencies });
  return dir;
}

/** The ```ts block of `text` whose first line starts with `first`. */
function block(text: string, first: string): string {
  const found = text.split('```ts\n').find((b) => b.startsWith(first));
  assert.ok(found, `no \`\`\`ts block starting with ${first}`);
  return found.slice(0, found.indexOf('```'));
}

/**
 * docs/server.md's and docs/stores.md's samples, read from the installed package, as a merchant
 * pastes them into an app (src/docs/): the opening backend whole; the others with the app's own
 * options in place of their `// ...` (src/docs/context.ts), and each hook in a `hooks` object.
 */
function pasteDocs(dir: string): void {
  const doc = (name: string) =>
    readFileSync(join(dir, 'node_modules', PACKAGE.name, 'docs', name), 'utf8');
  const server = doc('server.md');
  const stores = doc('stores.md');
  const from = (names: string) => `import { ${names} } from './context.js';\n`;
  const hooks = (first: string) =>
    `${from('pool, sql')}import type { PaymentHandlerOptions } from 'payment-widget/server';\n` +
    `export const hooks: PaymentHandlerOptions['hooks'] = {\n${block(stores, first)}};\n`;
  const redis = block(server, "import { createClient } from 'redis'");
  const files: Record<string, string> = {
    'server-opening.ts': block(server, 'import { createServer }'),
    'server-redis.ts': `${from('onPaid, options')}${redis.replace('// ...the same options on every instance...', '...options,')}`,
    'stores-postgres.ts': `${from('options')}${block(stores, 'import pg').replace('// ...', '...options,')}`,
    'stores-pg-hook.ts': hooks('// pg\n'),
    'stores-postgres-js-hook.ts': hooks('// postgres.js\n'),
  };
  for (const [name, text] of Object.entries(files)) {
    writeFileSync(join(dir, 'src', 'docs', name), text);
  }
}

let plain = '';
let frameworks = '';

before(() => {
  const keep = Boolean(process.env.KEEP_CONSUMER);
  folder = temporaryFolder('payment-widget-consumer-', { keep });
  workspace = folder.dir;
  ({ tarball, files: packed, bytes, packedBytes, unpackedBytes } = packProject(workspace));

  const typescript = version('typescript5');
  // A project without React or Vue: the framework typings must cost it nothing. With the
  // docs' database samples, and the clients `npm i pg postgres redis` gives (postgres.js 4).
  plain = project('plain', {
    typescript,
    '@types/node': version('@types/node'),
    pg: version('pg'),
    '@types/pg': version('@types/pg'),
    postgres: version('postgres4'),
    redis: version('redis'),
  });
  pasteDocs(plain);
  frameworks = project('frameworks', {
    typescript,
    '@types/react': version('@types/react'),
    react: version('react'),
    'react-dom': version('react-dom'),
    '@lit/react': version('@lit/react'),
    vue: version('vue'),
    'vue-tsc': VUE_TSC,
  });
});

after(() => {
  if (process.env.KEEP_CONSUMER) console.log(`consumer projects kept in ${workspace}`);
  else folder?.remove();
});

test('the tarball holds every file package.json names, and each entry’s types are declarations', () => {
  assert.ok(PACKAGE.customElements, 'package.json names no customElements manifest');
  const targets = Object.values(PACKAGE.exports).flatMap((target) =>
    typeof target === 'string' ? [target] : Object.values(target),
  );
  for (const file of [...targets, PACKAGE.customElements]) {
    assert.ok(packed.includes(file.replace(/^\.\//, '')), `${file} is not in the tarball`);
  }
  const code = Object.entries(PACKAGE.exports).filter(([entry]) => !entry.endsWith('.json'));
  assert.ok(code.length >= 7, 'the entries: ., server, sandbox, schemas, react, vue, script-tag');
  for (const [entry, target] of code) {
    const types = typeof target === 'string' ? '' : (target.types ?? '');
    assert.match(types, /\.d\.ts$/, `${entry}: its types are not declarations`);
  }
});

test('Parcel 2, which reads no `exports` unless the app opts in, finds the ES entry through `module`', () => {
  // Without it, `import 'payment-widget'` fails its build: "Cannot load file './index'".
  const entry = PACKAGE.exports['.'];
  assert.equal(PACKAGE.module, typeof entry === 'object' ? entry.import : entry);
  assert.ok(
    packed.includes(`${PACKAGE.module}`.replace(/^\.\//, '')),
    `${PACKAGE.module} is not packed`,
  );
});

test('installing the tarball into an empty project prints no warning', () => {
  const empty = mkdtempSync(join(workspace, 'empty-'));
  writeFileSync(join(empty, 'package.json'), '{ "name": "empty-shop", "private": true }\n');
  // As a merchant types it: scripts allowed, audit and funding notices aside.
  const install = run('npm', ['install', '--no-audit', '--no-fund', tarball], empty);
  assert.equal(install.status, 0, install.output);
  assert.doesNotMatch(install.output, /warn/i, install.output);
});

// What it holds: the widget three ways (ES module with its chunks, the script tag with its
// parts, a self-contained module), each locale, the Node entries, the dashboard, declarations
// and the documents the README links. 1 MB holds those, not a stray folder (995,267 B with the
// Node build minified but its functions' and classes' names, the ES entry loading the script
// tag's locale files rather than copies, a locale that words everything as another does sharing
// its file, and the schemas' declarations naming what they hold; 1,293,570 B before,
// about 1.69 MB with one declaration file per source file); the documents (which ship so that the README's links
// resolve where it is installed, test/node/package/readme.test.ts) are bounded apart, so that
// they cannot crowd out code (209,698 B once docs/pci.md and CONTRIBUTING's builds table and
// method recipe came; CONTRIBUTING.md, for working on the widget, has not shipped since the
// package reached 1,001,024 B; 969,473 B from 997,601 B once the Swiss locales rode in their
// language's file, the Node build carried only widgetTags()'s hashes, and the dashboard took
// the `lit` installed beside it rather than a copy).
test('the tarball is lean: no TypeScript source, test or source map, at most 1 MB unpacked, 220 kB of it documents', () => {
  const sources = packed.filter((file) => /\.(ts|tsx)$/.test(file) && !file.endsWith('.d.ts'));
  assert.deepEqual(sources, []);
  assert.deepEqual(
    packed.filter((file) => /(^|\/)test\/|\.map$/.test(file)),
    [],
  );
  assert.ok(unpackedBytes <= 1_000_000, `${unpackedBytes} bytes unpacked`);
  const isDoc = (file: string) => file.endsWith('.md') || file.startsWith('docs/');
  let docs = 0;
  for (const [file, size] of bytes) if (isDoc(file)) docs += size;
  assert.ok(docs <= 220_000, `${docs} bytes of documents unpacked`);
  console.log(
    `# the tarball: ${packed.length} files, ${packedBytes} bytes packed; ${unpackedBytes} bytes unpacked, ${docs} of them documents`,
  );
});

const TSC = ['node_modules/typescript/bin/tsc', '--pretty', 'false', '-p'];

test('a bundler project (strict, exactOptionalPropertyTypes) type-checks the element, its events, mount() and the script-tag global', () => {
  assertTypeChecks(run('node', [...TSC, 'tsconfig.bundler.json'], plain), 'bundler');
});

test('a nodenext project type-checks the element and the server entries', () => {
  assertTypeChecks(run('node', [...TSC, 'tsconfig.nodenext.json'], plain), 'nodenext');
});

test('a Node backend without the DOM library type-checks the server entries', () => {
  assertTypeChecks(run('node', [...TSC, 'tsconfig.server.json'], plain), 'server');
});

test('docs/server.md’s and docs/stores.md’s samples type-check as pasted (strict, exactOptionalPropertyTypes, with pg, postgres.js and redis)', () => {
  assertTypeChecks(run('node', [...TSC, 'tsconfig.docs.json'], plain), 'docs');
});

test('React 19: the component’s props and events, and the bare tag in JSX, are typed', () => {
  assertTypeChecks(run('node', [...TSC, 'tsconfig.react.json'], frameworks), 'react');
});

test('payment-widget/react renders on the server (react-dom/server, in Node)', () => {
  const result = run('node', ['ssr.mjs'], frameworks);
  assert.equal(result.status, 0, result.output);
  assert.match(result.output, /renders on the server/);
});

test('Vue templates (vue-tsc) know the element’s properties and event details, and refuse a misspelt event under strictTemplates', () => {
  const vueTsc = ['node_modules/vue-tsc/bin/vue-tsc.js', '--pretty', 'false', '-p'];
  assertTypeChecks(run('node', [...vueTsc, 'tsconfig.vue.json'], frameworks), 'vue');
});

test('every entry imports in Node (a server render, a backend)', () => {
  const result = run('node', ['imports.mjs'], plain);
  assert.equal(result.status, 0, result.output);
  assert.match(result.output, /every entry point imports in Node/);
});

test('every Node entry requires from CommonJS (a NestJS app’s default build)', () => {
  const result = run('node', ['requires.cjs'], plain);
  assert.equal(result.status, 0, result.output);
  assert.match(result.output, /every Node entry requires from CommonJS/);
});

// Marko (6.3, under @marko/run 0.11) compiles a template only with the tags it knows, and learns
// a package's from its `marko.json`, resolved from the app as `<package>/marko.json` (Node's
// resolution, so the exports map must name it). Without it, any page with the tag stops the
// build: "Unable to find entry point for custom tag <payment-widget>". `html: true` makes it a
// native element, written as it is and upgraded by the widget's script.
test('Marko finds the tag: payment-widget/marko.json resolves from an app and names <payment-widget> an HTML element', () => {
  const resolved = createRequire(join(plain, 'package.json')).resolve('payment-widget/marko.json');
  assert.deepEqual(JSON.parse(readFileSync(resolved, 'utf8')), {
    '<payment-widget>': { html: true },
  });
});

/** What a runtime of the Web platform offers (Deno, workers, edge functions); no Node API. */
const WEB_GLOBALS = [
  'AbortController',
  'AbortSignal',
  'Blob',
  'DOMException',
  'Event',
  'EventTarget',
  'FormData',
  'Headers',
  'ReadableStream',
  'Request',
  'Response',
  'TextDecoder',
  'TextEncoder',
  'TransformStream',
  'URL',
  'URLSearchParams',
  'WritableStream',
  'atob',
  'btoa',
  'clearTimeout',
  'console',
  'crypto',
  'fetch',
  'queueMicrotask',
  'setTimeout',
  'structuredClone',
] as const;

/** Node's built-in modules and the packages that need them. */
const NODE_ONLY = /^(node:|undici$|@hono\/node-server)/;

test('payment-widget/server runs where only Web globals exist (an edge runtime): no Node-only import at module top, and a card payment goes through', async () => {
  const bundled = await build({
    entryPoints: ['payment-widget/server'],
    absWorkingDir: plain,
    bundle: true,
    platform: 'neutral',
    mainFields: ['module', 'main'],
    format: 'iife',
    globalName: 'paymentServer',
    external: ['node:*', 'undici', '@hono/node-server', '@hono/node-server/*'],
    metafile: true,
    write: false,
    logLevel: 'silent',
  });
  const nodeOnly = Object.entries(bundled.metafile.inputs).flatMap(([file, input]) =>
    input.imports
      .filter((i) => NODE_ONLY.test(i.path) && i.kind !== 'dynamic-import')
      .map((i) => `${file} imports ${i.path} (${i.kind})`),
  );
  assert.deepEqual(nodeOnly, [], 'Node-only modules must be imported when first used');

  // A realm of its own with the Web platform's globals and nothing of Node's: no
  // `process`, `require` or `Buffer`, and no dynamic import() at all, so the provider
  // transport must find its way without undici.
  const realm: Record<string, unknown> = {};
  for (const name of WEB_GLOBALS) realm[name] = globalThis[name];
  const [output] = bundled.outputFiles;
  assert.ok(output);
  const server = runInNewContext(
    `${output.text}\npaymentServer`,
    realm,
  ) as typeof import('../../src/server/index.ts');
  assert.equal(runInNewContext('typeof process', realm), 'undefined');

  const sandbox = await createSandbox({ port: 0 });
  try {
    const paid: string[] = [];
    const origin = 'https://shop.example';
    const handler = server.createPaymentHandler({
      provider: {
        baseUrl: sandbox.url,
        apiKey: sandbox.apiKey,
        merchantCode: sandbox.merchantCode,
      },
      publicUrl: `${origin}/payments`,
      allowedOrigins: [origin],
      resultPages: {
        success: '/thanks',
        failure: '/thanks',
      },
      resolveCheckout: () => ({ amount: 10, currency: 'EUR', redirect: false }),
      hooks: {
        onPaid: (checkout) => {
          paid.push(String(checkout.id));
        },
      },
    });
    const call = (method: string, path: string, body?: unknown) =>
      handler(
        new Request(`${origin}/payments${path}`, {
          method,
          headers: { origin, 'content-type': 'application/json' },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        }),
      );
    const created = await call('POST', '/checkouts', { order: { sku: 'poster' } });
    assert.equal(created.status, 201);
    const { id } = (await created.json()) as { id: string };
    const processed = await call('PUT', `/checkouts/${id}`, cardBody('4200000000000091'));
    assert.equal(processed.status, 200);
    const confirmed = await call('GET', `/checkouts/${id}`);
    assert.equal(((await confirmed.json()) as { status: string }).status, 'PAID');
    assert.deepEqual(paid, [id]);
    assert.equal((await call('GET', '/nowhere')).status, 404);
  } finally {
    await sandbox.close();
  }
});

test('publint finds nothing to report', () => {
  const result = run('node', [join(ROOT, 'node_modules/publint/src/cli.js'), 'run', tarball], ROOT);
  assert.equal(result.status, 0, result.output);
  assert.doesNotMatch(result.output, /Suggestions?:|Warnings?:|Errors?:/, result.output);
});

test('Are the Types Wrong finds no problem for ESM consumers', () => {
  const cli = join(ROOT, 'node_modules/@arethetypeswrong/cli/dist/index.js');
  const result = run('node', [cli, tarball, '--profile', 'esm-only', '--format', 'ascii'], ROOT);
  assert.equal(result.status, 0, result.output);
});
