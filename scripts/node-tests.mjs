// Node's own test runner over every test/node/**/*.test.ts, listed here so that every
// Node line runs the same files, with tsx for TypeScript. Extra arguments narrow the files by
// substring, e.g. `npm run test:node -- sandbox`.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

function find(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return find(path);
    return entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

const filters = process.argv.slice(2);
const files = find('test/node')
  .filter((f) => filters.length === 0 || filters.some((s) => f.includes(s)))
  .sort();
// With no files, node --test would search the whole tree on its own (browser tests included).
if (files.length === 0) {
  console.error(`no test/node file matches ${filters.join(', ')}`);
  process.exit(2);
}
const { status } = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-concurrency=2', ...files],
  { stdio: 'inherit' },
);
process.exit(status ?? 1);
