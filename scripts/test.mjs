// `npm test`: every check in one command. Each step runs even when an earlier one failed, so
// one run shows every broken suite; the exit code is non-zero when any failed. Lint and
// typecheck run beside the builds and installs; each suite starts once what it reads is built,
// and they share the machine (see CAPACITY), each step's output printed whole when it ends. The browser
// suites run once per engine, and the summary names each engine with its count; the runtimes
// step names each runtime (Bun, Deno, workerd, Next.js, SvelteKit, Nuxt) with its result. Each
// line names the Node it ran on; TEST_NODE_BINARIES adds the node and runtimes suites on other
// Nodes.
//
//   node scripts/test.mjs                          everything
//   node scripts/test.mjs "browser tests" end-to-end   only steps whose names start so
//   node scripts/test.mjs --engine firefox         engine steps in Firefox only (repeatable)
//   node scripts/test.mjs build screenshots --update-screenshots
//                                                  write the screenshot baselines (npm run screenshots)
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { stripVTControlCharacters } from 'node:util';
import { checkEngine, ENGINES } from './browser.mjs';
import { NEXT_APP, PACKED, testSteps } from './test-steps.mjs';

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
 * Lint and typecheck need no build: they run one after the other beside the builds. The
 * builds and the suites start as many at once as fit in CAPACITY, each once the steps it is
 * `after` have ended, each taking its `weight` (a node suite runs two test files at a time: 2;
 * an install, which waits on the registry: 0; any other step 1), in the order listed whenever
 * room frees up: the builds, then the suites longest first, so that the run does not end
 * waiting on one long step started last. Side by side they fill the cores that one after another would
 * leave idle: a browser suite spends much of its time waiting on pages, and a suite that
 * builds an app or installs a package on its disk. Four at once keep the two cores busy (94 %
 * of a run's CPU time, against 84 % with three, which ran 10 % longer). Every deadline in the
 * suites is scaled to the machine's load (test/shared/time-scale.mjs). TEST_CAPACITY sets
 * CAPACITY (1 runs the steps one after another, live).
 */
const CAPACITY = Number(process.env.TEST_CAPACITY ?? 4);
if (!Number.isInteger(CAPACITY) || CAPACITY < 1) {
  console.error(`TEST_CAPACITY=${process.env.TEST_CAPACITY}: give a whole number, 1 or more`);
  process.exit(2);
}

const { checks, builds, suites } = testSteps({ chosen, updateScreenshots });

const steps = [
  ...checks.map((step) => ({ ...step, phase: 'checks' })),
  ...builds.map((step) => ({ weight: 1, ...step, phase: 'build' })),
  ...suites.map((step) => ({ weight: 1, ...step, phase: 'suite' })),
];

const selected = steps.filter(
  (step) => only.length === 0 || only.some((o) => step.name.startsWith(o)),
);
const selectedNames = new Set(selected.map((step) => step.name));
// The shared package and app, for the steps that run beside the steps that make them; a step
// run without them (`npm test -- runtimes`) packs and builds its own.
if (selectedNames.has('pack')) process.env.PAYMENT_WIDGET_PACKED = PACKED;
if (selectedNames.has('next app')) process.env.PAYMENT_WIDGET_NEXT_APP = NEXT_APP;

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

// Where steps may run at once (checks beside builds, builds and suites beside each other),
// each step's output is kept and printed whole when it ends, so that two steps' lines never
// mix; a step that runs alone is echoed as it comes.
const chosenIn = (phase) => selected.filter((step) => step.phase === phase);
const scheduled = [...chosenIn('build'), ...chosenIn('suite')];
const sideBySide = CAPACITY > 1 && scheduled.length > 1;
const buffered = {
  checks: scheduled.length > 0,
  build: sideBySide,
  suite: sideBySide,
};

/**
 * The CPU time of every child this process has waited for, in seconds, where Linux says
 * (/proc/self/stat's cutime and cstime, in clock ticks of 1/100 s): a step's processes are
 * all counted the moment the step's own process is reaped, so the growth since the last
 * reap is that step's CPU, whatever ran beside it. Shown per step in the summary: it is what
 * two cores have to share, where a step's seconds depend on what ran beside it. It misses the
 * browser processes that are handed to init rather than reaped by the step (Chromium's
 * zygote children, WebKit's): a full CI run uses a quarter to a third more CPU than it adds up.
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
    const live = !buffered[step.phase];
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
      if (!live) process.stdout.write(`\n=== ${step.name}\n${out}${err}`);
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
  return {
    step,
    name: step.name,
    node: step.node ?? process.versions.node,
    ok,
    seconds,
    cpu,
    counts,
  };
}

function announce(step) {
  const later = buffered[step.phase] ? ' (its output when it ends)' : '';
  console.log(`\n=== ${step.name}: ${step.command} ${step.args.join(' ')}${later}`);
  return runAndCount(step);
}

/**
 * Runs `queue` in CAPACITY (see there): whenever a step ends, starts the steps in the order
 * listed, skipping those whose `after` steps (those of this run) have not ended, until one
 * does not fit in the room left. None overtakes that one: were the one-room steps let past a
 * two-room node suite, each end would hand its room to the next of them, and the node suites,
 * the longest, would start last.
 */
function runSteps(queue) {
  const results = [];
  const ended = new Set();
  const waiting = (step) =>
    (step.after ?? []).some((name) => selectedNames.has(name) && !ended.has(name));
  let room = CAPACITY;
  let running = 0;
  return new Promise((resolve) => {
    const fill = () => {
      if (queue.length === 0 && running === 0) resolve(results);
      for (const step of [...queue]) {
        // One at a time, an install too (TEST_CAPACITY=1: one after another, live).
        const weight = CAPACITY === 1 ? 1 : Math.min(step.weight, CAPACITY);
        if (waiting(step)) continue;
        if (weight > room) break;
        queue.splice(queue.indexOf(step), 1);
        room -= weight;
        running += 1;
        announce(step).then((result) => {
          results.push(result);
          ended.add(step.name);
          room += weight;
          running -= 1;
          fill();
        });
      }
    };
    fill();
  });
}

const runStarted = Date.now();
// Lint and typecheck, one after the other, beside the builds.
const checked = chosenIn('checks').reduce(
  (before, step) => before.then(async (done) => [...done, await announce(step)]),
  Promise.resolve([]),
);
const done = [...(await runSteps(scheduled)), ...(await checked)];
// In the order the steps are listed.
const results = selected.map((step) => done.find((result) => result.step === step));

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
// The failed tests by name with what each saw (the first few of each step, a line each), so the
// end of the log, which may be all that CI keeps of it, says where to look.
const cut = (line) => (line.length > 400 ? `${line.slice(0, 399)}…` : line);
for (const r of results.filter((result) => !result.ok)) {
  const names = r.counts?.failures ?? [];
  for (const name of names.slice(0, 10)) console.log(cut(`  ${r.name}: ${name}`));
  if (names.length > 10) console.log(`  ${r.name}: and ${names.length - 10} more`);
}
console.log(`suites: ${results.length - broken.length} passed, ${broken.length} failed`);
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped or todo`);
process.exit(broken.length > 0 ? 1 : 0);
