// `npm run bench`: bundle sizes, render time, handler overhead and sandbox
// throughput, printed as tables. Not part of `npm test`: timings depend on the
// machine. Bounded: every phase has a count and a time cap, every server binds
// 127.0.0.1 and is stopped at the end.
//
//   node --import tsx bench/run.ts [bundle] [render] [keystroke] [first-paint] [handler] [throughput] [telemetry] [prism] [compression] [lighthouse] [journal] [stores]
//   env: BENCH_OPS (2000), BENCH_CONCURRENCY (8), BENCH_RENDER_RUNS (20),
//        BENCH_KEYSTROKE_ROUNDS (10) of typing a card number per target,
//        BENCH_FIRST_PAINT_ROUNDS (10) of a cold and a warm load per build,
//        BENCH_CONNECTIONS (10), BENCH_SECONDS (2 for throughput, 5 for telemetry),
//        BENCH_ROUNDS (10 for throughput, 5 for telemetry), BENCH_LOOP_ROUNDS for the in-process parts of telemetry (15)
//        and of throughput with a baseline (60),
//        BENCH_CPU_PROF=dir (servers write CPU profiles there),
//        BENCH_PERF=dir (Linux perf records each throughput server there),
//        BENCH_PIN=1 (throughput: the servers on CPU 0, autocannon on CPU 1, by taskset),
//        BENCH_BASELINE=dir (another checkout beside this one: its sandbox and handler in throughput,
//          its built widget in keystroke and first-paint; build it there first),
//        PROVIDER_OPENAPI (the spec Prism serves), BENCH_NO_BUILD=1 (measure dist as is),
//        BENCH_COMPRESSION_REQUESTS (500) per round of the compression part,
//        BENCH_LIGHTHOUSE_RUNS (3) per page, BENCH_LIGHTHOUSE_PAGES (/,/?redirect=0,/module.html),
//        BENCH_JOURNAL_OPS (3000) creates per round and target of the journal phase,
//        BENCH_STORE_OPS (4000) calls per store and measure of the stores phase
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BundleRow, competitorBundles, ourBreakdown, ourBundles } from './bundle.ts';
import { median, percentile } from './load.ts';
import {
  FIRST_PAINT_GZIP_BUDGET,
  IIFE,
  LOCALE_GZIP_BUDGET,
  localeFiles,
  sizesOfFile,
} from './measure.ts';
import { intFromEnv, ms, rate, ratio, spread, table, times, verdict } from './report.ts';
import { handlerPhase, prismPhase, telemetryPhase, throughputPhase } from './server-phases.ts';

const BENCH = dirname(fileURLToPath(import.meta.url));
const ROOT = join(BENCH, '..');
const PHASES = [
  'bundle',
  'render',
  'keystroke',
  'first-paint',
  'handler',
  'throughput',
  'telemetry',
  'prism',
  'compression',
  'lighthouse',
  'journal',
  'stores',
] as const;
type Phase = (typeof PHASES)[number];
/** Phases that need none of bench/package.json's dependencies. */
const SELF_CONTAINED: readonly Phase[] = [
  'render',
  'keystroke',
  'first-paint',
  'compression',
  'journal',
  'stores',
];

function run(command: string, args: string[], cwd: string): void {
  const { status } = spawnSync(command, args, { cwd, stdio: 'inherit' });
  if (status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${status})`);
}

/** The bench-only dependencies live in bench/package.json; install them on first use. */
function ensureBenchDeps(): void {
  const needed = [
    '@adyen/adyen-web',
    'braintree-web-drop-in',
    '@stoplight/prism-cli',
    'autocannon',
    'lighthouse',
  ];
  if (needed.every((name) => existsSync(join(BENCH, 'node_modules', name, 'package.json')))) return;
  console.log('Installing the bench-only dependencies (npm --prefix bench ci) ...');
  run('npm', ['ci', '--no-audit', '--no-fund'], BENCH);
}

async function bundlePhase(): Promise<void> {
  console.log('## Bundle (vite lib, minified, es2022; gzip -9, brotli 11; bytes)\n');
  const ours = ourBundles();
  const theirs = await competitorBundles();
  const ourOf = (format: BundleRow['format']) => ours.find((r) => r.format === format);
  table(
    ['bundle', 'format', 'JS gzip', 'total gzip', 'total brotli', 'ours / theirs (gzip)'],
    [...ours, ...theirs].map((r) => {
      const mine = ourOf(r.format);
      return [
        r.name,
        r.format,
        r.js.gzip,
        r.total.gzip,
        r.total.brotli,
        r.name === 'payment-widget' || !mine ? '' : ratio(mine.total.gzip, r.total.gzip),
      ];
    }),
  );
  for (const r of theirs) if (r.note && r.format === 'iife') console.log(`- ${r.name}: ${r.note}`);
  const iife = sizesOfFile(IIFE).gzip;
  console.log(
    `- IIFE budget ${FIRST_PAINT_GZIP_BUDGET} B gzip: ${iife} B, ${iife <= FIRST_PAINT_GZIP_BUDGET ? 'within' : `OVER by ${iife - FIRST_PAINT_GZIP_BUDGET} B`}`,
  );
  if (iife > FIRST_PAINT_GZIP_BUDGET) {
    console.log(
      '\nWhere the IIFE bytes come from (gzip shared out by pre-minify size; an estimate):\n',
    );
    table(
      ['part', 'rendered B', '~gzip B'],
      (await ourBreakdown()).map((r) => [r.part, r.rendered, r.gzipShare]),
    );
  }
  const locales = localeFiles();
  if (locales.length === 0) console.log('- lazy locales: none emitted under dist/locales/');
  else {
    const sizes = locales.map((f) => sizesOfFile(f).gzip);
    const worst = Math.max(...sizes);
    console.log(
      `- lazy locales: ${locales.length} files, largest ${worst} B gzip (budget ${LOCALE_GZIP_BUDGET} B)`,
    );
  }
  console.log();
}

async function renderPhase(): Promise<void> {
  const { measureRender } = await import('./render.ts');
  const runs = intFromEnv('BENCH_RENDER_RUNS', 20);
  const result = await measureRender(runs);
  const s = result.samples;
  const col = (pick: (x: (typeof s)[number]) => number) => {
    const values = s.map(pick).sort((a, b) => a - b);
    return [ms(percentile(values, 50)), ms(values[0] ?? Number.NaN), ms(percentile(values, 90))];
  };
  console.log(
    `## Render (headless Chromium ${result.chromium}, ${s.length} fresh contexts; ms from the page's mark before the <script> tag)\n`,
  );
  table(
    ['span', 'median', 'min', 'p90'],
    [
      ['script start -> evaluated (element defined)', ...col((x) => x.evaluated)],
      ['script start -> payment-ready (form usable)', ...col((x) => x.ready)],
      ['  of which: waiting for the fake backend', ...col((x) => x.backend)],
      ['  of which: widget work', ...col((x) => x.ready - x.backend - Math.max(0, x.fetched))],
      ['main-thread task time, whole page', ...col((x) => x.mainThread)],
      ['  of which: running JavaScript', ...col((x) => x.script)],
    ],
  );
}

/** BENCH_BASELINE's built widget (its `dist`), when given; a missing build is an error. */
function baselineBuild(): { name: string; dist: string } | undefined {
  const baseline = process.env.BENCH_BASELINE;
  if (!baseline) return undefined;
  const dist = join(baseline, 'dist');
  if (!existsSync(join(dist, 'payment-widget.iife.js'))) {
    throw new Error(`${dist} has no build: run npm run build in ${baseline}`);
  }
  return { name: baseline, dist };
}

/** The issue's bar for a keystroke: at most twice a bare input's, or at most 50 ms. */
const KEYSTROKE_RATIO = 2;
const KEYSTROKE_MS = 50;

async function keystrokePhase(): Promise<void> {
  const { CARD_NUMBER, CPU_THROTTLING, measureKeystrokes } = await import('./keystroke.ts');
  const rounds = intFromEnv('BENCH_KEYSTROKE_ROUNDS', 10);
  const baseline = baselineBuild();
  const bare = 'bare <input> on a blank page';
  const loadBefore = loadavg();
  const result = await measureKeystrokes(
    [
      { name: 'widget, this checkout', iife: IIFE },
      ...(baseline
        ? [
            {
              name: `widget, ${baseline.name}`,
              iife: join(baseline.dist, 'payment-widget.iife.js'),
            },
          ]
        : []),
      { name: bare },
    ],
    rounds,
  );
  console.log(
    `## Keystroke (headless Chromium ${result.chromium}, CPU ${CPU_THROTTLING}x slower; ${CARD_NUMBER.length} digits typed key by key, ${rounds} rounds per target, taking turns; ms by Event Timing, 16 = under 16)\n`,
  );
  const slowest = (name: string) =>
    result.targets.find((t) => t.target.name === name)?.rounds.map((r) => r.slowest) ?? [];
  const ms0 = (n: number) => n.toFixed(0);
  table(
    ['target', 'slowest keystroke', 'first keystroke', 'median keystroke', 'slowest / bare'],
    result.targets.map(({ target, rounds: r }) => [
      target.name,
      spread(
        r.map((x) => x.slowest),
        ms0,
      ),
      ms0(median(r.map((x) => x.keys[0] ?? Number.NaN))),
      ms0(median(r.flatMap((x) => x.keys))),
      target.name === bare ? '' : ratio(median(slowest(target.name)), median(slowest(bare))),
    ]),
  );
  const widget = median(slowest('widget, this checkout'));
  const floor = median(slowest(bare));
  const meets = widget <= KEYSTROKE_RATIO * floor || widget <= KEYSTROKE_MS;
  console.log(
    `- slowest keystroke, median of rounds: the widget ${ms0(widget)} ms, the bare input ${ms0(floor)} ms: ${meets ? 'meets' : 'ABOVE'} <= ${KEYSTROKE_RATIO}x the bare input or <= ${KEYSTROKE_MS} ms`,
  );
  const load = (l: number[]) => l.map((n) => n.toFixed(2)).join(' ');
  console.log(`- load average before: ${load(loadBefore)}; after: ${load(loadavg())}\n`);
}

async function compressionPhase(): Promise<void> {
  const { measureCompression } = await import('./compression.ts');
  const requests = intFromEnv('BENCH_COMPRESSION_REQUESTS', 500);
  const rounds = 5;
  const r = await measureCompression(requests, rounds);
  console.log(
    `## Demo compression (in-process through Hono's fetch, Accept-Encoding as Chromium sends it; ${rounds} rounds of ${requests} requests per way, taking turns; server CPU median (min-max))\n`,
  );
  const us = (n: number) => n.toFixed(0);
  const rows = (what: string, list: typeof r.bundle) =>
    list.map((w) => [`${what}: ${w.name}`, w.encoding, w.bytes, spread(w.cpu, us)]);
  table(
    ['body: way', 'encoding', 'bytes sent', 'server CPU µs/req'],
    [...rows('widget IIFE', r.bundle), ...rows(`shop page (${r.pageBytes} B)`, r.page)],
  );
  console.log(
    `- kept: made once per version of a file: brotli 11 ${r.oneOff.brotli.toFixed(0)} ms and gzip 9 ${r.oneOff.gzip.toFixed(1)} ms of CPU for the widget IIFE\n`,
  );
}

async function lighthousePhase(): Promise<void> {
  const { CATEGORIES, findingsOf, measureLighthouse, medianOf } = await import('./lighthouse.ts');
  const runs = intFromEnv('BENCH_LIGHTHOUSE_RUNS', 3);
  const paths = (process.env.BENCH_LIGHTHOUSE_PAGES ?? '/,/?redirect=0,/module.html').split(',');
  const result = await measureLighthouse(paths, runs);
  console.log(
    `## Lighthouse ${result.lighthouse} on the demo shop (mobile preset, headless Chromium ${result.chromium}; median of ${runs} runs per page, pages in turns)\n`,
  );
  const score = (n: number) => n.toFixed(2);
  table(
    [
      'page',
      'performance',
      'accessibility',
      'best practices',
      'SEO',
      'CLS',
      'LCP ms',
      'widget B',
      'page B',
    ],
    result.pages.map(({ path, runs }) => [
      path,
      spread(
        runs.map((r) => r.scores.performance),
        score,
      ),
      ...CATEGORIES.slice(1).map((c) => score(medianOf(runs, (r) => r.scores[c]))),
      spread(
        runs.map((r) => r.cls),
        (n) => n.toFixed(3),
      ),
      medianOf(runs, (r) => r.lcp).toFixed(0),
      medianOf(runs, (r) => r.widgetTransfer),
      medianOf(runs, (r) => r.totalTransfer),
    ]),
  );
  console.log(
    'Performance and CLS: median (min-max). LCP is simulated (mobile preset). widget B / page B: bytes over the wire, headers included, of the widget bundle / the whole load.\n',
  );
  console.log('Findings (scored audits below 1: id, category, median score, runs it appeared in):');
  for (const { path, runs } of result.pages) {
    const list = findingsOf(runs).map(
      (f) => `${f.id} (${f.category}, ${f.score.toFixed(2)}, ${f.runs}/${runs.length})`,
    );
    console.log(`- ${path}: ${list.length > 0 ? list.join('; ') : 'none'}`);
  }
  const errored = [...new Set(result.pages.flatMap((p) => p.runs.flatMap((r) => r.errors)))];
  if (errored.length > 0)
    console.log(`- audits Lighthouse could not run: ${errored.sort().join(', ')}`);
  console.log();
}

/** The acceptance floor: creates with `--data` (everysec) against the same sandbox in memory. */
const JOURNAL_FLOOR = 0.5;

async function storesPhase(): Promise<void> {
  const { measureStores } = await import('./stores.ts');
  const shape = { ops: intFromEnv('BENCH_STORE_OPS', 4000) };
  const rows = await measureStores(shape);
  console.log(
    `## The stores (each on its own server on loopback: PostgreSQL with a pg Pool of 10, Redis with one node-redis connection; ms per call)\n`,
  );
  table(
    ['measure', 'store', 'calls', 'p50 ms', 'p99 ms'],
    rows.map((r) => [r.measure, r.store, r.ops, ms(r.p50), ms(r.p99)]),
  );
  console.log('');
}

async function journalPhase(): Promise<void> {
  const { measureJournal } = await import('./journal.ts');
  const shape = {
    ops: intFromEnv('BENCH_JOURNAL_OPS', 3000),
    concurrency: intFromEnv('BENCH_CONCURRENCY', 8),
    rounds: intFromEnv('BENCH_ROUNDS', 3),
  };
  const r = await measureJournal(shape);
  console.log(
    `## The sandbox's data file (payment-sandbox CLI per target, ${shape.rounds} rounds of ${shape.ops} checkout creates at concurrency ${shape.concurrency}, taking turns; creates/s median (min-max))\n`,
  );
  table(
    ['target', 'creates/s', 'file MiB at the end', 'failed'],
    r.targets.map((t) => [
      t.name,
      spread(t.rates, rate),
      t.fileBytes === undefined ? '-' : (t.fileBytes / 2 ** 20).toFixed(1),
      t.failed,
    ]),
  );
  console.log(
    `- --data (everysec) / in memory: ${spread(r.everysecRatio, times)}, ${verdict(r.everysecRatio, JOURNAL_FLOOR)}\n`,
  );
  const failed = r.targets.find((t) => t.failed > 0);
  if (failed) throw new Error(`${failed.name}: ${failed.firstError}: the numbers above are void`);
}

const chosen = process.argv.slice(2);
for (const name of chosen) {
  if (!PHASES.includes(name as Phase)) {
    console.error(`unknown phase ${name}; choose from ${PHASES.join(', ')}`);
    process.exit(2);
  }
}
const phases = chosen.length > 0 ? (chosen as Phase[]) : [...PHASES];

// Phases that bring what they need: no bench-only dependencies (and the journal phase, which
// runs the CLI from source, no build either).
if (phases.some((phase) => !SELF_CONTAINED.includes(phase))) ensureBenchDeps();
if (phases.some((phase) => phase !== 'journal' && phase !== 'stores')) {
  if (process.env.BENCH_NO_BUILD !== '1' || !existsSync(IIFE))
    run('npm', ['run', '--silent', 'build'], ROOT);
}

console.log(
  `\n# payment-widget bench: ${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB, Node ${process.version}\n`,
);
const started = Date.now();
const actions: Record<Phase, () => Promise<void>> = {
  bundle: bundlePhase,
  render: renderPhase,
  keystroke: keystrokePhase,
  'first-paint': async () => {
    const { firstPaintPhase } = await import('./first-paint.ts');
    const baseline = baselineBuild();
    await firstPaintPhase([
      { name: 'this checkout', dist: join(ROOT, 'dist') },
      ...(baseline ? [baseline] : []),
    ]);
  },
  handler: handlerPhase,
  throughput: throughputPhase,
  telemetry: telemetryPhase,
  prism: prismPhase,
  compression: compressionPhase,
  lighthouse: lighthousePhase,
  journal: journalPhase,
  stores: storesPhase,
};
let failed = false;
for (const phase of phases) {
  try {
    await actions[phase]();
  } catch (error) {
    failed = true;
    console.error(`${phase} failed: ${error instanceof Error ? error.message : String(error)}\n`);
  }
}
console.log(`(bench took ${((Date.now() - started) / 1000).toFixed(0)} s)`);
process.exit(failed ? 1 : 0);
