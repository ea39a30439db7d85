// No source file a newcomer must page through: every script the repository keeps (the
// package, its tests, scripts, benches, the demo and the site) is at most 400 lines.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { ROOT } from './source.ts';

const MAX_LINES = 400;
const SCRIPTS = ['*.ts', '*.tsx', '*.mts', '*.js', '*.mjs', '*.cjs', '*.vue'];

test(`no source file the repository keeps is over ${MAX_LINES} lines`, () => {
  const files = execFileSync('git', ['ls-files', '--', ...SCRIPTS], { cwd: ROOT, encoding: 'utf8' })
    .split('\n')
    .filter(Boolean);
  assert.ok(files.includes('src/index.ts'), `git listed ${files.length} files, not the sources`);
  const long = files
    .map((file) => ({ file, lines: readFileSync(join(ROOT, file), 'utf8').split('\n').length - 1 }))
    .filter(({ lines }) => lines > MAX_LINES);
  assert.deepEqual(long, []);
});
