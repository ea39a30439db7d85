// `npm test`: every check in one command, in order of speed. Each step runs even
// when an earlier one failed, so one run shows every broken suite; the exit code
// is non-zero when any failed.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chromiumPath } from './browser.mjs';

try {
  chromiumPath();
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
}

const steps = [
  ['lint', 'npx', ['biome', 'check', '.']],
  ['typecheck', 'npx', ['tsc', '--noEmit', '-p', 'tsconfig.json']],
  ['build', 'npm', ['run', '--silent', 'build']],
  // The React and Vue pages have their own package (kept out of the main install).
  ...(existsSync('examples/node_modules')
    ? []
    : [['examples install', 'npm', ['--prefix', 'examples', 'ci', '--no-audit', '--no-fund']]]),
  ['examples build', 'npm', ['--prefix', 'examples', 'run', '--silent', 'build']],
  ['node tests', 'npm', ['run', '--silent', 'test:node']],
  ['browser tests', 'npx', ['wtr']],
  ['end-to-end tests', 'npx', ['playwright', 'test']],
];

const only = process.argv.slice(2);
let passed = 0;
const failed = [];
for (const [name, command, args] of steps) {
  if (only.length > 0 && !only.some((o) => name.startsWith(o))) continue;
  console.log(`\n=== ${name}: ${command} ${args.join(' ')}`);
  const started = Date.now();
  const { status } = spawnSync(command, args, { stdio: 'inherit', env: process.env });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (status === 0) {
    passed += 1;
    console.log(`=== ${name}: ok (${seconds} s)`);
  } else {
    failed.push(name);
    console.log(`=== ${name}: FAILED (${seconds} s)`);
  }
}
console.log(`\nFailed: ${failed.length > 0 ? failed.join(', ') : 'none'}`);
console.log(`suites: ${passed} passed, ${failed.length} failed`);
process.exit(failed.length > 0 ? 1 : 0);
