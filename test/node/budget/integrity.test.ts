// dist/integrity.json, the inventory of every file a browser may load from the package (PCI DSS
// 6.4.3's list of a payment page's scripts, with a reason for each): it names every such file
// the build wrote, each with the hash and size of its bytes, and every file the widget loads
// after its first script carries a hash that the file loading it holds, so the page's one
// `integrity` covers them all.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { test } from 'node:test';
import { INVENTORY_MARKERS, inventoryMarkdown } from '../../../scripts/integrity.ts';
import { createSandboxCore } from '../../../src/sandbox/core.ts';
import type { IntegrityManifest } from '../../../src/server/index.ts';

const DIST = 'dist';
const MISSING = 'is missing: run `npm run build` first (`npm test` builds before this suite)';
/** What dist/ holds that no browser loads from a page: the Node build, the declarations, the site. */
const NOT_FOR_PAGES = ['node/', 'types/', 'site/'];
/** Data beside the scripts, read by tools (editors, widgetTags), never run by a page. */
const DATA = ['custom-elements.json', 'integrity.json'];

function manifest(): IntegrityManifest {
  assert.ok(existsSync(join(DIST, 'integrity.json')), `dist/integrity.json ${MISSING}`);
  return JSON.parse(readFileSync(join(DIST, 'integrity.json'), 'utf8'));
}

/** Every file under dist/ but what no page loads, by its path there. */
function servedFiles(): string[] {
  return readdirSync(DIST, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(DIST, join(entry.parentPath, entry.name)).split(sep).join('/'))
    .filter((path) => !NOT_FOR_PAGES.some((folder) => path.startsWith(folder)))
    .sort();
}

const sri = (bytes: Buffer) => `sha384-${createHash('sha384').update(bytes).digest('base64')}`;
const read = (path: string) => readFileSync(join(DIST, path), 'utf8');

test('integrity.json lists every file dist/ serves to a browser, with its hash and size', () => {
  const listed = manifest().files;
  const scripts = servedFiles().filter((path) => !DATA.includes(path));
  assert.deepEqual(
    scripts.filter((path) => !path.endsWith('.js')),
    [],
    'a file a page may load that is not a script: add it to the inventory (scripts/integrity.ts)',
  );
  assert.deepEqual(
    listed.map((file) => file.path).sort(),
    scripts,
    'integrity.json and dist/ disagree',
  );
  for (const file of listed) {
    const bytes = readFileSync(join(DIST, file.path));
    assert.equal(file.integrity, sri(bytes), `${file.path}: integrity`);
    assert.equal(file.bytes, bytes.byteLength, `${file.path}: bytes`);
    assert.ok(file.when.length > 10 && file.why.length > 10, `${file.path}: when and why`);
    assert.ok(
      ['page', 'widget', 'your-build', 'sandbox'].includes(file.checkedBy),
      `${file.path}: checkedBy`,
    );
  }
});

test('the Node build holds the hash of each file the page checks, and of no other', () => {
  // widgetTags() reads only these, on any runtime (vite.node.config.ts); `check-page`, a Node
  // command, reads the others' from integrity.json: here they would be 4.4 kB of the package
  // twice.
  const built = readdirSync(join(DIST, 'node'), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.js'))
    .map((file) => read(join('node', file)))
    .join('\n');
  for (const file of manifest().files) {
    const checked = file.checkedBy === 'page';
    assert.equal(built.includes(file.integrity), checked, `${file.path} (${file.checkedBy})`);
  }
});

test('the parts and locales are checked by the widget, against hashes held by what loads them', () => {
  const listed = manifest().files;
  // The widget holds each file's SHA-256 (integrity.json lists the SHA-384 of the same bytes).
  const sha256Of = (path: string) => {
    assert.ok(
      listed.some((f) => f.path === path),
      `${path} is not in integrity.json`,
    );
    return `sha256-${createHash('sha256')
      .update(readFileSync(join(DIST, path)))
      .digest('base64')}`;
  };
  const holds = (holder: string, path: string) =>
    assert.ok(read(holder).includes(sha256Of(path)), `${holder} does not hold the hash of ${path}`);
  // The page's own tag checks the bundles; each bundle checks the parts it loads itself.
  for (const bundle of ['payment-widget.iife.js', 'payment-widget.js']) {
    assert.equal(listed.find((f) => f.path === bundle)?.checkedBy, 'page');
    holds(bundle, 'parts/pay.js');
    holds(bundle, 'parts/languages.js');
    holds(bundle, 'parts/diagnostics.js');
  }
  // The pay part checks the part its code loads; the languages part, each locale.
  holds('parts/pay.js', 'parts/step.js');
  const widgetChecked = listed.filter((f) => f.checkedBy === 'widget').map((f) => f.path);
  const locales = widgetChecked.filter((path) => path.startsWith('locales/'));
  assert.equal(locales.length, readdirSync(join(DIST, 'locales')).length);
  for (const path of locales) holds('parts/languages.js', path);
  assert.deepEqual(widgetChecked.filter((path) => !path.startsWith('locales/')).sort(), [
    'parts/diagnostics.js',
    'parts/languages.js',
    'parts/pay.js',
    'parts/step.js',
  ]);
});

test("the sandbox's dashboard script is listed as checked by no one: its page gives no integrity", async () => {
  const dashboard = manifest().files.find((f) => f.path === 'sandbox-dashboard/dashboard.js');
  assert.equal(dashboard?.checkedBy, 'sandbox');
  const core = createSandboxCore({}, { dashboardScript: () => '' });
  const page = await (
    await core.handle(new Request('http://127.0.0.1/', { headers: { accept: 'text/html' } }))
  ).text();
  core.close();
  assert.match(page, /<script type="module" src="[^"]*dashboard\.js">/);
});

test('the dashboard’s script imports Lit, which the sandbox serves, rather than holding a copy', () => {
  // 15 kB of the package: the page's import map finds `lit` (src/sandbox/control/dashboard.ts).
  const script = read('sandbox-dashboard/dashboard.js');
  assert.match(script, /^import\{[^}]*LitElement[^}]*\}from"lit";/);
  assert.ok(!script.includes('CSSResult is not constructable'), 'a copy of Lit');
});

test('the ES entry and its chunks are listed as what a bundler reads, never loaded as they are', () => {
  const listed = manifest().files;
  const forBundlers = listed.filter((f) => f.checkedBy === 'your-build').map((f) => f.path);
  assert.ok(forBundlers.includes('index.js'));
  assert.ok(forBundlers.includes('react.js'));
  const chunks = readdirSync(join(DIST, 'chunks')).map((name) => `chunks/${name}`);
  assert.deepEqual(forBundlers.filter((path) => path.startsWith('chunks/')).sort(), chunks.sort());
});

test("docs/pci.md's inventory is the one integrity.json gives", () => {
  const doc = readFileSync('docs/pci.md', 'utf8');
  const [open = '', close = ''] = INVENTORY_MARKERS;
  const table = doc.slice(doc.indexOf(open) + open.length, doc.indexOf(close)).trim();
  assert.ok(table.startsWith('| file |'), `docs/pci.md has no table between ${open} and ${close}`);
  assert.equal(
    table,
    inventoryMarkdown(manifest()),
    'docs/pci.md is out of date: node --import tsx scripts/pci-inventory.ts',
  );
});
