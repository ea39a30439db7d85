// Every file the package ships is one a merchant's path reaches: the package holds at most
// 1 MB unpacked, and a file nothing loads, imports or links takes room from the docs and code
// a merchant does need. The paths start where a merchant starts: package.json (its exports,
// bins, `module` and `customElements`), the README (npm ships it whatever `files` says) and
// the two bundles widgetTags() puts in a page. From there a file reaches
// - a module or declaration file it imports (`from './x.js'`, `import('./x.js')`),
// - a file whose SHA-256 it carries (the bundles and parts check each part and locale they
//   load against it: src/widget/parts/checked-import.ts),
// - a file it names by its file name in a string (the sandbox reads its dashboard's script,
//   `check-page` the package's integrity.json),
// - a document or image it links (`[text](docs/x.md)`, `<img src>`), or a document it names
//   by its path in prose (a declaration's doc comment that sends the reader to docs/x.md).
// The same `npm pack --dry-run` list the 1 MB cap is measured on (test/consumer/), of the
// checkout as it is built.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join, normalize } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { BUNDLES } from '../../../src/server/page/manifest.ts';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** The files `npm pack` puts in the tarball, with their bytes. */
function packed(): Map<string, number> {
  assert.ok(
    existsSync(join(ROOT, 'dist')),
    'the package is not built: run `npm run build` first (`npm test` builds before this suite)',
  );
  const pack = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  assert.equal(pack.status, 0, pack.stderr);
  const [info] = JSON.parse(pack.stdout) as { files: { path: string; size: number }[] }[];
  assert.ok(info);
  return new Map(info.files.map((file) => [file.path, file.size]));
}

/** Every string leaf of package.json's `exports`, `bin`, `module` and `customElements`. */
function packageEntries(manifest: Record<string, unknown>): string[] {
  const leaves = (value: unknown): string[] =>
    typeof value === 'string'
      ? [value]
      : typeof value === 'object' && value !== null
        ? Object.values(value).flatMap(leaves)
        : [];
  return [manifest.exports, manifest.bin, manifest.module, manifest.customElements]
    .flatMap(leaves)
    .map((path) => normalize(path));
}

/** The relative paths a module or declaration file imports, resolved from its folder. */
function imports(file: string, text: string): string[] {
  const specifiers = text.matchAll(
    /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s*)(["'`])(\.\.?\/[^"'`\n]+)\1/g,
  );
  // A declaration imports its neighbour's `.js` path, which TypeScript reads as its `.d.ts`.
  const declared = (path: string) =>
    file.endsWith('.d.ts') ? path.replace(/\.js$/, '.d.ts') : path;
  return [...specifiers].map((m) => declared(normalize(join(dirname(file), m[2] ?? ''))));
}

/** The relative targets a markdown file links (`[x](target)`, `![x](target)`, `src=`, `href=`). */
function links(file: string, text: string): string[] {
  const targets = [
    ...text.matchAll(/\]\(\s*<?([^)\s>#]+)/g),
    ...text.matchAll(/\s(?:href|src)="([^"#]+)"/g),
  ].map((m) => m[1] ?? '');
  return targets
    .filter((target) => !/^[a-z][a-z+.-]*:/i.test(target))
    .map((target) => normalize(join(dirname(file), target)));
}

/** The `sha256-...` of a file's bytes, as a loader carries it. */
function sha256(file: string): string {
  return `sha256-${createHash('sha256')
    .update(readFileSync(join(ROOT, file)))
    .digest('base64')}`;
}

/** Each shipped file no path from the starts reaches, with its bytes. */
function unreached(files: Map<string, number>, starts: string[]): [string, number][] {
  const names = [...files.keys()];
  const hashes = new Map(names.filter((f) => /\.m?js$/.test(f)).map((f) => [sha256(f), f]));
  const reached = new Set<string>();
  const queue = starts.filter((start) => files.has(start));
  const reach = (file: string) => {
    if (files.has(file) && !reached.has(file)) queue.push(file);
  };
  for (let file = queue.pop(); file !== undefined; file = queue.pop()) {
    if (reached.has(file)) continue;
    reached.add(file);
    // package.json reaches its entries (the starts), not what its `files` lists.
    if (!/\.(m?js|ts|json|md)$/.test(file) || file === 'package.json') continue;
    const text = readFileSync(join(ROOT, file), 'utf8');
    if (file.endsWith('.md')) links(file, text).forEach(reach);
    else imports(file, text).forEach(reach);
    for (const [hash, loaded] of hashes) if (text.includes(hash)) reach(loaded);
    for (const other of names) {
      const name = basename(other);
      // Named in a string ('dashboard.js', '../integrity.json'), or by its path in prose.
      if (new RegExp(`[\`'"/]${name.replace(/\./g, '\\.')}[\`'"]`).test(text)) reach(other);
      if (other.endsWith('.md') && text.includes(other)) reach(other);
    }
  }
  return [...files].filter(([file]) => !reached.has(file));
}

test('every file the package ships is reached from an export, a bin, the README or widgetTags()', () => {
  const files = packed();
  const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  const starts = [
    'package.json',
    'README.md',
    ...packageEntries(manifest),
    ...Object.values(BUNDLES).map((bundle) => `dist/${bundle}`),
  ];
  for (const start of starts) assert.ok(files.has(start), `${start} is not in the package`);
  const dead = unreached(files, starts);
  assert.deepEqual(
    dead.map(([file, bytes]) => `${file} (${bytes} B)`),
    [],
    'shipped, yet no export, bin, link or loader reaches it: leave it out of `files` or the build',
  );
});

test('a file nothing reaches is found: a part no bundle loads, a document nothing links', () => {
  const files = new Map(packed());
  const starts = ['package.json', 'README.md', 'dist/payment-widget.iife.js'];
  // The script tag's parts are reached only by the hashes the bundle carries.
  const reached = unreached(files, starts).map(([file]) => file);
  assert.ok(!reached.includes('dist/parts/pay.js'), 'the pay part, by its hash in the bundle');
  assert.ok(!reached.includes('dist/locales/de-DE.js'), 'a locale, by its hash in a part');
  assert.ok(!reached.includes('docs/pci.md'), 'a document the README links');
  // Without the README, nothing links the documents: each one is reported.
  const withoutReadme = unreached(files, ['package.json', 'dist/payment-widget.iife.js']).map(
    ([file]) => file,
  );
  assert.ok(withoutReadme.includes('docs/pci.md'), withoutReadme.join(' '));
  assert.ok(withoutReadme.includes('SECURITY.md'), withoutReadme.join(' '));
});
