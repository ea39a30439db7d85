// What the build knows of the files a browser loads from dist/: their subresource-integrity
// hashes, built into whoever loads them (builtIntegrity(), a Vite plugin: the parts' into the
// self-contained bundles, each locale's into the languages part), and `dist/integrity.json`,
// the inventory of all of them (writeManifest()). scripts/build.ts runs the builds in the
// order this needs: the locale files, the parts, the bundles, then the rest.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
import type { IntegrityManifest, ManifestFile } from '../src/server/page/manifest.ts';
import { fileLocale, localeModuleSource, riders, TAGS } from '../src/widget/locales/all.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
export const DIST = join(ROOT, 'dist');
export const MANIFEST = join(DIST, 'integrity.json');

/** `sha384-...` (or another algorithm's) of `bytes`, as a <script integrity> takes it. */
export function sri(bytes: Uint8Array | string, algorithm: 'sha256' | 'sha384' = 'sha384'): string {
  return `${algorithm}-${createHash(algorithm).update(bytes).digest('base64')}`;
}

/**
 * `locales/{tag}.js` for every locale but English (which is in the bundle): one small ES
 * module each, loaded when a page asks for that locale, but none for one that words
 * everything as an earlier one does, whose file it loads (fileLocale(); 20 kB of the
 * package: de-AT, de-LU, el-CY, es-CO, fr-BE, fr-LU), nor for one whose few different words
 * ride in an earlier one's file of its language as `regions` (9 kB: de-CH, fr-CH, it-CH).
 * Written before the parts, whose languages part carries their hashes and which file each
 * of those nine loads.
 */
export function writeLocales(dist: string = DIST): void {
  for (const tag of TAGS) {
    if (tag.startsWith('en-') || fileLocale(tag) !== tag) continue;
    writeFileSync(join(dist, 'locales', `${tag}.js`), localeModuleSource(tag));
  }
}

/**
 * A Vite plugin that builds src/widget/locales/files.ts as `export const LOCALE_FILES =
 * {"de-AT":"de-DE",...}`: each locale writeLocales() writes no file for, and the locale
 * whose file it loads.
 */
export function sharedLocaleFiles(): Plugin {
  const id = join(ROOT, 'src/widget/locales/files.ts');
  return {
    name: 'payment-widget-shared-locale-files',
    enforce: 'pre',
    load(loaded) {
      if (loaded !== id) return null;
      const shared = TAGS.filter((tag) => !tag.startsWith('en-') && fileLocale(tag) !== tag);
      const table = Object.fromEntries(shared.map((tag) => [tag, fileLocale(tag)]));
      return `export const LOCALE_FILES = ${JSON.stringify(table)};\n`;
    },
  };
}

/**
 * A Vite plugin that builds `module` (a path from the repository's root) as
 * `export const NAME = { key: 'sha256-...' }`, one hash for each built file that `files()`
 * names by key. The file is read when the build first needs it, so it must be built by
 * then; a missing one fails the build (a file loaded without its hash would not be checked).
 * SHA-256 rather than integrity.json's SHA-384: as safe for a check (subresource integrity
 * takes either), and a third shorter in a bundle where every byte counts (28 distinct locale
 * files make the languages part 0.5 KiB gzip smaller).
 */
export function builtIntegrity(
  module: string,
  name: string,
  files: () => Record<string, string>,
): Plugin {
  const id = join(ROOT, module);
  return {
    name: 'payment-widget-built-integrity',
    enforce: 'pre',
    load(loaded) {
      if (loaded !== id) return null;
      const table: Record<string, string> = {};
      for (const [key, path] of Object.entries(files())) {
        if (!existsSync(path)) throw new Error(`${path} is not built: ${module} needs its hash`);
        table[key] = sri(readFileSync(path), 'sha256');
      }
      return `export const ${name} = ${JSON.stringify(table)};\n`;
    },
  };
}

/**
 * The `.js` files in `folder` under dist/ (`parts`), by their name without `.js`: every one,
 * or those `names` lists (whether built yet or not).
 */
export function builtFiles(folder: string, names?: readonly string[]): Record<string, string> {
  const dir = join(DIST, folder);
  const all = existsSync(dir)
    ? readdirSync(dir)
        .filter((file) => file.endsWith('.js'))
        .map((file) => file.slice(0, -3))
    : [];
  return Object.fromEntries((names ?? all).map((name) => [name, join(dir, `${name}.js`)]));
}

/**
 * Whose hashes each build carries, by part name: every file is checked against a hash held by
 * the file that loads it, and only the page's own `integrity` covers the bundle. The bundle
 * loads the pay part and the languages part (at once, side by side), and the diagnostics part
 * (for a mistake in the page, or a file that did not load); the pay part loads the next
 * steps' (only its code asks for it); the languages part carries each locale's.
 */
export const CARRIED: { bundle: readonly string[]; parts: Record<string, readonly string[]> } = {
  bundle: ['pay', 'languages', 'diagnostics'],
  parts: { pay: ['step'] },
};

/** What dist/ holds that no browser loads from a page: the Node build, the declarations, the site. */
const NOT_FOR_BROWSERS = ['node', 'types', 'site'];

/** Every file under dist/ that a browser may load (scripts), by its path under dist/. */
export function browserFiles(dist: string = DIST): string[] {
  return readdirSync(dist, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.js'))
    .map((entry) => relative(dist, join(entry.parentPath, entry.name)).split(sep).join('/'))
    .filter((path) => !NOT_FOR_BROWSERS.includes(path.split('/')[0] ?? ''))
    .sort();
}

const languageNames = new Intl.DisplayNames(['en'], { type: 'language' });

/** A locale's name in English: "German (Switzerland)". */
function localeName(tag: string): string {
  return languageNames.of(tag) ?? tag;
}

const PARTS: Record<string, { when: string; why: string }> = {
  pay: {
    when: "right after the card form's first paint, on every page",
    why: 'the card rules as the shopper types, Pay and the confirmed outcome, saved cards, "Try another card"',
  },
  step: {
    when: 'when a payment’s answer calls for a next step, or a checkout left one open',
    why: 'a 3-D Secure challenge, a bank’s page, a boleto voucher',
  },
  languages: {
    when: 'on a page in another language than English',
    why: 'finds the supported locale closest to the page’s, and loads and checks its file',
  },
  diagnostics: {
    when: 'only on a page with a mistake in its markup or settings',
    why: 'the browser console’s words for that mistake, for the page’s developer',
  },
};

/** What the ES entry's shared chunks hold (`chunks/{name}-{hash}.js`). */
const SHARED_CHUNKS: Record<string, string> = {
  checkout: 'the checkout’s statuses and payment methods, shared by the entry and its parts',
  format: 'the calls to the handler and the words’ formatting, shared by the entry and its parts',
  language: 'reading a language tag, shared by the entry and its languages part',
  css: "the stylesheets' tag, shared by the entry and its parts",
};

const BUNDLED = 'not as it is, with a bundler: your bundler reads it';

/** When a file loads, why, and who checks it: from its path. */
export function describe(path: string): Omit<ManifestFile, 'path' | 'integrity' | 'bytes'> {
  const [folder = '', file = ''] = path.includes('/') ? path.split('/') : ['', path];
  const name = file.replace(/\.js$/, '');
  if (path === 'payment-widget.iife.js' || path === 'payment-widget.js') {
    const tag = path === 'payment-widget.js' ? '<script type="module">' : '<script>';
    return {
      when: `first: the page's own ${tag} (widgetTags())`,
      why: 'defines <payment-widget>, draws the card form, and loads and checks every file below that it needs',
      checkedBy: 'page',
    };
  }
  if (folder === 'parts' && PARTS[name]) return { ...PARTS[name], checkedBy: 'widget' };
  if (folder === 'locales') {
    // With the words of the locales that ride in it: "and Swiss High German's".
    const others = Object.keys(riders(name)).map((region) => `${name.slice(0, 2)}-${region}`);
    const and = others.map((tag) => `, and ${localeName(tag)}'s`).join('');
    return {
      when: `on a page in ${name}, after parts/languages.js (your bundler splits it off from index.js too)`,
      why: `the widget's words in ${localeName(name)}${and}`,
      checkedBy: 'widget',
    };
  }
  if (path === 'index.js') {
    return {
      when: `${BUNDLED} (import 'payment-widget') and serves its own files`,
      why: "the package's ES entry: the widget for bundlers, with Lit left as an import",
      checkedBy: 'your-build',
    };
  }
  if (path === 'react.js') {
    return {
      when: `${BUNDLED} (import 'payment-widget/react')`,
      why: 'the React component around the element',
      checkedBy: 'your-build',
    };
  }
  if (folder === 'chunks') return chunk(name.replace(/-[\w-]{8}$/, ''));
  if (folder === 'sandbox-dashboard') {
    return {
      when: "on the sandbox's dashboard only (development): never on a shop's page",
      why: "the dashboard's live view of the simulated provider",
      checkedBy: 'sandbox',
    };
  }
  throw new Error(`dist/${path}: the inventory does not know this file (scripts/integrity.ts)`);
}

function chunk(name: string): Omit<ManifestFile, 'path' | 'integrity' | 'bytes'> {
  const split = `${BUNDLED} with index.js, and splits it off`;
  const part = PARTS[name];
  if (part) return { when: `${split}: ${part.when}`, why: part.why, checkedBy: 'your-build' };
  const shared = SHARED_CHUNKS[name];
  if (shared) return { when: `${BUNDLED} with index.js`, why: shared, checkedBy: 'your-build' };
  throw new Error(
    `dist/chunks/${name}-*.js: the inventory does not know this chunk (scripts/integrity.ts)`,
  );
}

/** `dist/integrity.json`, from what dist/ holds now: every file a browser may load. */
export function manifest(dist: string = DIST): IntegrityManifest {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    name: string;
    version: string;
  };
  const files = browserFiles(dist).map((path): ManifestFile => {
    const bytes = readFileSync(join(dist, path));
    return { path, integrity: sri(bytes), bytes: bytes.byteLength, ...describe(path) };
  });
  return { name: pkg.name, version: pkg.version, files };
}

/**
 * Written one file to a line: a person (or `grep`) still reads it file by file, without the
 * 4 kB that indenting each field took.
 */
export function writeManifest(dist: string = DIST): IntegrityManifest {
  const written = manifest(dist);
  const { files, ...head } = written;
  const lines = files.map((file) => `    ${JSON.stringify(file)}`).join(',\n');
  const json = `${JSON.stringify(head, null, 2).slice(0, -2)},\n  "files": [\n${lines}\n  ]\n}\n`;
  writeFileSync(join(dist, 'integrity.json'), json);
  return written;
}

/** Where docs/pci.md holds the inventory table (scripts/pci-inventory.ts rewrites it). */
export const INVENTORY_MARKERS = [
  '<!-- inventory: scripts/pci-inventory.ts -->',
  '<!-- /inventory -->',
];

const WHO: Record<ManifestFile['checkedBy'], string> = {
  page: "the browser, against the page's `integrity` (widgetTags())",
  widget: 'the widget, against the hash built into the file that loads it',
  'your-build': 'your bundler reads it; your page serves what it outputs',
  sandbox: "nobody: the sandbox's page loads it, with no `integrity`",
};

/**
 * The inventory as a Markdown table, one row per file, from integrity.json: a chunk's content
 * hash is written `*` and the locale files are one row, so the table changes only when the
 * package's files do (their hashes and sizes are in dist/integrity.json, shipped).
 */
export function inventoryMarkdown(manifest: IntegrityManifest): string {
  const rows = new Map<string, ManifestFile>();
  let locales = 0;
  for (const file of manifest.files) {
    if (file.path.startsWith('locales/')) {
      locales += 1;
      continue;
    }
    rows.set(file.path.replace(/^(chunks\/[a-z]+)-[\w-]{8}\.js$/, '$1-*.js'), file);
  }
  const cell = (text: string) => text.replace(/\|/g, '\\|');
  const lines = [...rows].map(
    ([path, f]) => `| \`${path}\` | ${cell(f.when)} | ${cell(f.why)} | ${WHO[f.checkedBy]} |`,
  );
  if (locales > 0) {
    lines.push(
      `| \`locales/{tag}.js\` (${locales} files) | on a page in that locale, after \`parts/languages.js\` (your bundler splits it off from index.js too) | the widget's words in that locale | ${WHO.widget} |`,
    );
  }
  return [
    '| file | when a browser loads it | why | checked by |',
    '|---|---|---|---|',
    ...lines.sort(),
  ].join('\n');
}
