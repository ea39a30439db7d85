/**
 * The React and Vue pages (examples/, a package of its own), built into examples/dist/ for
 * the example shop to serve at /examples/react/ and /examples/vue/. `npm start` and
 * `npm test` both go through here: examples/ is installed when it has no node_modules, and
 * the pages are built when they are missing or were built from other inputs than today's
 * (the widget's build they bundle, their sources, the lock file), whose hash is kept in
 * examples/dist/inputs.sha256. So the first `npm start` of a fresh clone builds them, and
 * every later one only hashes about 200 KiB.
 *
 *   node --import tsx scripts/examples.ts
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const EXAMPLES = join(ROOT, 'examples');
const PAGES = ['react', 'vue'] as const;
const STAMP = join(EXAMPLES, 'dist', 'inputs.sha256');

/** Every file below `path` (or `path` itself), in a stable order. */
function files(path: string): string[] {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path)
    .sort()
    .flatMap((name) => files(join(path, name)));
}

/** One hash over the names and bytes of what the pages are built from. */
function inputsHash(): string {
  const hash = createHash('sha256');
  const inputs = [
    join(ROOT, 'dist', 'index.js'),
    join(ROOT, 'dist', 'locales'),
    join(EXAMPLES, 'package-lock.json'),
    ...PAGES.map((page) => join(EXAMPLES, page)),
  ].flatMap(files);
  for (const file of inputs) {
    hash.update(`${file.slice(ROOT.length)}\0`);
    hash.update(readFileSync(file));
  }
  return hash.digest('hex');
}

function npm(args: string[]): void {
  const result = spawnSync('npm', ['--prefix', EXAMPLES, ...args], { stdio: 'inherit' });
  if (result.status !== 0) {
    throw new Error(`npm --prefix examples ${args.join(' ')} failed (${result.status})`);
  }
}

/** Installs and builds the example pages unless their build is there and up to date. */
export function ensureExamples(log: (line: string) => void): 'built' | 'up to date' {
  if (!existsSync(join(ROOT, 'dist', 'index.js'))) {
    throw new Error('The widget is not built: run `npm run build` first.');
  }
  const built = PAGES.every((page) => existsSync(join(EXAMPLES, 'dist', page, 'index.html')));
  const hash = inputsHash();
  if (built && existsSync(STAMP) && readFileSync(STAMP, 'utf8').trim() === hash) {
    return 'up to date';
  }
  if (!existsSync(join(EXAMPLES, 'node_modules'))) {
    log('Installing the React and Vue examples (npm --prefix examples ci)...');
    npm(['ci', '--no-audit', '--no-fund']);
  }
  log('Building the React and Vue examples (npm --prefix examples run build)...');
  npm(['run', '--silent', 'build']);
  writeFileSync(STAMP, `${hash}\n`);
  return 'built';
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(`examples: ${ensureExamples((line) => console.log(line))}`);
}
