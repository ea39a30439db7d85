// The README as a merchant reads it where the package is installed (node_modules/payment-widget,
// an editor or `npm view`): the packed tarball, extracted, with every relative link and image of
// the README, and of each document it links, resolving inside it (a `#heading` included), and
// the README opening with what a shop needs.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { after, before, test } from 'node:test';
import { packProject } from '../../shared/packed.ts';
import { type TemporaryFolder, temporaryFolder } from '../support/children.ts';

let folder: TemporaryFolder | undefined;
/** The extracted package: what `npm install` puts in node_modules/payment-widget. */
let root = '';

before(() => {
  folder = temporaryFolder('payment-widget-readme-');
  const { tarball } = packProject(folder.dir);
  const into = join(folder.dir, 'extracted');
  mkdirSync(into);
  const tar = spawnSync('tar', ['-xzf', tarball, '-C', into], { encoding: 'utf8' });
  assert.equal(tar.status, 0, tar.stderr);
  root = join(into, 'package');
});

after(() => {
  folder?.remove();
});

/** Markdown without its code (fenced blocks and inline spans): only prose links count. */
function prose(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
}

/** Every link and image target: `[text](target)`, `![alt](target)`, `<a href>`, `<img src>`. */
export function linkTargets(markdown: string): string[] {
  const text = prose(markdown);
  const targets = [...text.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map(
    (m) => m[1] ?? '',
  );
  for (const m of text.matchAll(/<(?:a|img)\b[^>]*\s(?:href|src)="([^"]+)"/g)) {
    targets.push(m[1] ?? '');
  }
  return targets;
}

/** The anchors GitHub and npm give a document's headings ("Next.js (App Router)" -> nextjs-app-router). */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  for (const [, heading = ''] of markdown
    .replace(/^```[\s\S]*?^```/gm, '')
    .matchAll(/^#{1,6}\s+(.+?)\s*#*$/gm)) {
    anchors.add(
      heading
        .toLowerCase()
        .replace(/[^\p{L}\p{N}\s_-]/gu, '')
        .replace(/\s/g, '-'),
    );
  }
  return anchors;
}

/** Each broken link of `file` (a path inside the package), and the documents it links. */
function check(file: string, seen: Set<string>, broken: string[]): void {
  if (seen.has(file)) return;
  seen.add(file);
  const markdown = readFileSync(join(root, file), 'utf8');
  for (const target of linkTargets(markdown)) {
    if (/^[a-z][a-z+.-]*:/i.test(target)) continue; // https:, mailto:: not the package's
    const [path = '', anchor] = target.split('#');
    const full = path === '' ? join(root, file) : resolve(dirname(join(root, file)), path);
    const inside = relative(root, full);
    if (inside.startsWith('..') || inside.startsWith(sep) || !existsSync(full)) {
      broken.push(`${file}: ${target} (not in the package)`);
      continue;
    }
    if (!full.endsWith('.md') || statSync(full).isDirectory()) continue;
    if (anchor && !headingAnchors(readFileSync(full, 'utf8')).has(anchor)) {
      broken.push(`${file}: ${target} (no such heading)`);
    }
    check(inside, seen, broken);
  }
}

test('every relative link and image of the README, and of what it links, resolves in the package', () => {
  const seen = new Set<string>();
  const broken: string[] = [];
  check('README.md', seen, broken);
  assert.deepEqual(broken, []);
  // The documents it reaches ship: the server's, the sandbox's, the threat model.
  for (const doc of ['docs/server.md', 'docs/sandbox.md', 'docs/spa.md', 'SECURITY.md']) {
    assert.ok(seen.has(doc), `the README no longer links ${doc}`);
  }
  console.log(`# ${seen.size} documents, every link resolved`);
});

test('the README opens with what a shop needs, and keeps the repository’s two commands', () => {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const sections = [...readme.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
  assert.deepEqual(sections.slice(0, 3), ['Install', 'Your backend', 'Your page']);
  // For whoever works on the package: the demo and every test, in the last section.
  assert.equal(sections.at(-1), 'Working on this package');
  const last = readme.slice(readme.lastIndexOf('## Working on this package'));
  assert.match(last, /`npm install && npm start`/);
  assert.match(last, /```sh\nnpm install\nnpm start\n```/);
  assert.match(last, /```sh\nnpm test\n```/);
});

test('headingAnchors and linkTargets read markdown as GitHub and npm render it', () => {
  assert.deepEqual(
    [...headingAnchors('## Next.js (App Router)\n### Routes (relative to `basePath`)\n')],
    ['nextjs-app-router', 'routes-relative-to-basepath'],
  );
  assert.deepEqual(
    linkTargets(
      'See [a](docs/a.md#x) and ![b](b.png "title").\n```md\n[not](c.md)\n```\n`[no](d.md)` <img src="e.png">',
    ),
    ['docs/a.md#x', 'b.png', 'e.png'],
  );
});
