// Node's own test runner over every test/node/**/*.test.ts, listed here so that every
// Node line runs the same files. Node runs the TypeScript itself (type stripping, on by
// default from 22.18): the code keeps to erasable syntax (tsconfig's erasableSyntaxOnly), and
// no loader costs each file's process its start-up. Extra arguments narrow the files by
// substring, e.g. `npm run test:node -- sandbox`.
//
// `--other-line` is how npm test runs the suite on the Node lines besides the one the
// repository develops on: every file that exercises what differs from one line to the next
// (node:http, fetch, streams, Web Crypto, timers, AsyncLocalStorage, child processes, the
// Redis clients on a single server, the CLI), and not those whose subject is the same on
// every line, listed in SAME_ON_EVERY_LINE with why. Those are the long load and fault runs
// (our own algorithms and Redis's failover, minutes of CPU on each line), the checks of
// built files, functions of their input alone and the sandbox's resource rules; the
// developing line runs them.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * Files whose tests need a process of their own: they change what the whole process does,
 * for as long as it lives. (In a shared process a file's top-level `before` and `after` run
 * before and after every file's tests, not around its own.) The telemetry tests register
 * OpenTelemetry's global providers and count what those hear; node-listener-load.test.ts
 * hooks module resolution so that @hono/node-server cannot load, which in a shared process
 * would fail every other file's servers with a 500; exactly-once/races.test.ts replaces the
 * global fetch to deliver the sandbox's webhooks to its handlers, which sent other files'
 * calls to the provider astray.
 */
const OWN_PROCESS = [
  'test/node/telemetry/',
  'test/node/http/node-listener-load.test.ts',
  'test/node/exactly-once/races.test.ts',
  // A page's DOM (jsdom) as the process's globals, as a test runner's DOM environment sets them.
  'test/node/package/test-dom.test.ts',
];

const SAME_ON_EVERY_LINE = [
  // The bytes of the built bundles, the source layout, the screenshots' own checks, the
  // package's declarations, element manifest and what reaches each shipped file: files.
  'test/node/budget/',
  'test/node/layout/',
  'test/node/visual/',
  'test/node/package/declarations.test.ts',
  'test/node/package/manifest.test.ts',
  'test/node/package/reach.test.ts',
  // Functions of their input alone, with no server, process, socket or timer: the card
  // fields' rules, the schemas, the next-step URL rule, how a client's address is bucketed,
  // the memory store's claims.
  'test/node/card/',
  'test/node/schemas/',
  'test/node/next-step/url.test.ts',
  'test/node/server/client-address.test.ts',
  'test/node/server/memory-store.test.ts',
  // The playground's server code, type-checked by tsc and run once: text and types.
  'test/node/demo/playground-code.test.ts',
  // Thousands of generated requests against our own validation (raw-http.test.ts, which
  // feeds Node's HTTP parser, runs on every line).
  'test/node/fuzz/handler.test.ts',
  'test/node/fuzz/sandbox.test.ts',
  // A thousand races of the claims: the claim algorithm under load.
  'test/node/exactly-once/',
  // The topology runs (races of two instances, outages, Cluster and Sentinel failovers, a
  // killed primary): Redis's behaviour and ours under load, met through the same clients that
  // store.test.ts and the two-instance tests (instances, reconcile, sweep) run on every line.
  'test/node/redis/topology-single.test.ts',
  'test/node/redis/topology-cluster.test.ts',
  'test/node/redis/topology-sentinel.test.ts',
  'test/node/redis/crash.test.ts',
  'test/node/redis/failover-wait.test.ts',
  'test/node/redis/outage.test.ts',
  // 500 checkouts reported to two instances at once: the claims under load again, through the
  // clients that reconcile.test.ts and sweep.test.ts meet on every line.
  'test/node/redis/instances.test.ts',
  // PostgreSQL: leases waited out three times over, servers crashed and promoted, a soak of
  // three instances: the database's behaviour and ours, met through the same clients that
  // postgres/store.test.ts runs on every line.
  'test/node/postgres/transactional-hook.test.ts',
  'test/node/postgres/crash.test.ts',
  'test/node/postgres/soak.test.ts',
  // Tens of thousands of journal lines written, torn and read back: our own file format.
  'test/node/sandbox/data-file.test.ts',
  'test/node/sandbox/data-file-startup.test.ts',
  // The sandbox's resources, one file each: the provider's rules as our own code keeps them
  // (amounts, states, scopes, limits, the clock, webhook faults). What of the sandbox meets
  // Node stays on every line: every endpoint over node:http and fetch from a client nobody on
  // the team wrote (sandbox-rest/sdk.test.ts), and the sandbox every handler test pays
  // against, its CLI as a process, a body still arriving, a torn socket (challenge), the
  // dashboard's cookies and the README's node:test snippet.
  ...[
    'access',
    'apm',
    'checkouts',
    'clock',
    'closed-steps',
    'control',
    'customers',
    'deliveries',
    'outcomes',
    'references',
    'request-ids',
    'store',
    'transactions',
    'trigger',
    'webhook-faults',
  ].map((name) => `test/node/sandbox/${name}.test.ts`),
  ...[
    'deprecation',
    'merchant',
    'operators',
    'payouts',
    'readers-checkouts',
    'readers-data-file',
    'readers-pairing',
    'receipts',
  ].map((name) => `test/node/sandbox-rest/${name}.test.ts`),
];

/**
 * The files whose tests take ten seconds and more (servers started, failed over and killed,
 * leases waited out, thousands of requests), longest first as measured on an idle machine:
 * each gets a process, started before the others, so that no long one is left to run alone at
 * the end. A file missing here runs among the others, in a process it shares.
 */
const LONG_RUNS = [
  'test/node/redis/topology-cluster.test.ts',
  'test/node/faults/provider-faults.test.ts',
  'test/node/postgres/crash.test.ts',
  'test/node/redis/topology-sentinel.test.ts',
  'test/node/redis/topology-single.test.ts',
  'test/node/sandbox/data-file.test.ts',
  'test/node/redis/outage.test.ts',
  'test/node/redis/frozen.test.ts',
  'test/node/redis/instances.test.ts',
  'test/node/redis/failover-wait.test.ts',
  'test/node/redis/store.test.ts',
  'test/node/postgres/transactional-hook.test.ts',
];

function find(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return find(path);
    return entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

const args = process.argv.slice(2);
const otherLine = args.includes('--other-line');
const filters = args.filter((a) => a !== '--other-line');
const files = find('test/node')
  .filter((f) => filters.length === 0 || filters.some((s) => f.includes(s)))
  .filter((f) => !otherLine || !SAME_ON_EVERY_LINE.some((s) => f.startsWith(s)))
  .sort();
// With no files, node --test would search the whole tree on its own (browser tests included).
if (files.length === 0) {
  console.error(`no test/node file matches ${filters.join(', ')}`);
  process.exit(2);
}
// Node's compile cache keeps the modules compiled (and their types stripped) between
// processes and runs, one folder per Node version inside it.
const cache = resolve('node_modules/.cache/node-compile-cache');
const env = { NODE_COMPILE_CACHE: cache, ...process.env };

// A process per file spends most of a short file's CPU starting Node and importing the handler,
// the sandbox and the store clients (one to two seconds a process, against under a second for
// the tests of most files): the files share processes (--test-isolation=none), two running at
// a time (npm test counts this step as two of its capacity, scripts/test.mjs), each running its
// files one after another. The long runs go first, a process each, longest first, so that the
// suite does not end waiting on one started last; the other files follow in SHARED_RUNS
// processes, the files shared out in turn (two for each of the two at a time: their ends come
// close together, and each process pays its imports once for a quarter of the files). The
// files in OWN_PROCESS, whose tests read what another file's tests change for the whole
// process, and those with top-level hooks around each test, run last, a process each.
const SHARED_RUNS = 4;
// A file's top-level beforeEach or afterEach runs around every test of the process it is in,
// other files' too (a sandbox reset before each of them, say): such a file gets its own.
const eachHook = /^(?:beforeEach|afterEach)\(/m;
const own = files.filter(
  (f) => OWN_PROCESS.some((s) => f.startsWith(s)) || eachHook.test(readFileSync(f, 'utf8')),
);
const long = LONG_RUNS.filter((f) => files.includes(f) && !own.includes(f));
const others = files.filter((f) => !own.includes(f) && !long.includes(f));
const queue = [
  ...long.map((f) => [f]),
  ...Array.from({ length: SHARED_RUNS }, (_, n) =>
    others.filter((_, i) => i % SHARED_RUNS === n),
  ).filter((list) => list.length > 0),
  ...own.map((f) => [f]),
];
const isolation =
  Number(process.versions.node.split('.')[0]) >= 23
    ? '--test-isolation=none'
    : '--experimental-test-isolation=none';

// Each run's output is printed whole when it ends, so that two runs' lines never mix: the
// spec reporter's on a terminal, TAP otherwise (as node --test chooses for itself).
const reporter = process.stdout.isTTY ? 'spec' : 'tap';
const mark = reporter === 'spec' ? 'ℹ ' : '# ';
const runs = [];

/** Runs node --test over `list`; resolves with its exit code once its output is printed. */
function run(list) {
  return new Promise((resolveRun) => {
    const child = spawn(
      process.execPath,
      ['--test', `--test-reporter=${reporter}`, isolation, ...list],
      { env, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      out += chunk;
    });
    child.on('close', (code) => {
      process.stdout.write(out);
      runs.push(out);
      resolveRun(code ?? 1);
    });
  });
}

/** Takes the queue's next run whenever its last one ends; resolves with the worst exit code. */
async function worker() {
  let worst = 0;
  for (let list = queue.shift(); list; list = queue.shift())
    worst = Math.max(worst, await run(list));
  return worst;
}
const codes = await Promise.all([worker(), worker()]);

// One summary for the whole suite, after each run's own (npm test reads the last one).
const totals = {};
const line = /^(?:# |ℹ )(tests|suites|pass|fail|cancelled|skipped|todo) (\d+)$/gm;
for (const out of runs) {
  for (const [, key, n] of out.matchAll(line)) totals[key] = (totals[key] ?? 0) + Number(n);
}
for (const [key, n] of Object.entries(totals)) console.log(`${mark}${key} ${n}`);
process.exit(Math.max(...codes));
