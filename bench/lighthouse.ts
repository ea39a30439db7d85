// Lighthouse on the demo shop: the sandbox and the shop started here on free
// loopback ports, each page audited by Lighthouse's CLI (mobile preset, its
// default: simulated slow 4G and a 4x slower CPU) in headless Chromium with the
// closed-network flags every browser run here uses. The pages are audited in
// turns (every page once, then again), so a load that comes and goes on a shared
// machine weighs on all of them alike; each number is the median of the runs.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
// @ts-expect-error -- a plain .mjs helper shared with web-test-runner; it has no type declarations
import { chromiumArgs, chromiumPath } from '../scripts/browser.mjs';
import { startServerExample } from '../server-example/index.ts';
import { createSandbox } from '../src/sandbox/index.ts';
import { median } from './load.ts';

const BENCH = dirname(fileURLToPath(import.meta.url));
/** Lighthouse is a bench-only dependency (bench/package.json); its CLI runs from there. */
const CLI = join(BENCH, 'node_modules/lighthouse/cli/index.js');

export const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
export type Category = (typeof CATEGORIES)[number];

/** The part of a Lighthouse result (LHR) this bench reads. */
interface Audit {
  id: string;
  title: string;
  score: number | null;
  scoreDisplayMode: string;
  numericValue?: number;
  errorMessage?: string;
  details?: { type?: string; items?: { url?: string; transferSize?: number }[] };
}
interface Lhr {
  lighthouseVersion: string;
  environment: { hostUserAgent: string };
  categories: Record<Category, { score: number | null; auditRefs: { id: string }[] }>;
  audits: Record<string, Audit>;
  runtimeError?: { code: string; message: string };
}

/** One Lighthouse run of one page. */
export interface PageRun {
  scores: Record<Category, number>;
  /** Cumulative Layout Shift (unitless). */
  cls: number;
  /** Largest Contentful Paint, simulated on the mobile preset (ms). */
  lcp: number;
  /** Bytes the widget bundle took over the wire (headers included), as Lighthouse saw them. */
  widgetTransfer: number;
  /** Every bytes the page's load took over the wire. */
  totalTransfer: number;
  /** Scored audits below 1 (the findings), by id, with the category they count in. */
  findings: { id: string; title: string; score: number; category: Category }[];
  /** Audits Lighthouse could not run on this page, by id. */
  errors: string[];
}

export interface LighthouseResult {
  lighthouse: string;
  chromium: string;
  pages: { shop: string; path: string; url: string; runs: PageRun[] }[];
}

/** The most one Lighthouse run may take. */
const RUN_TIMEOUT_MS = 180_000;

/** The widget bundle of a page: the script-tag build or the ES module build. */
const WIDGET_BUNDLE = /\/assets\/payment-widget(?:\.iife)?\.js$/;

/**
 * Chromium flags for Lighthouse's own launcher: headless, no sandbox (root in
 * a container), and the closed network: no host name but loopback resolves, no
 * background traffic. Each goes as its own --chrome-flags argument; the CLI
 * joins and re-parses them, so a value with spaces is quoted.
 */
function chromeFlags(): string[] {
  const flags = ['--headless=new', '--no-sandbox', ...(chromiumArgs as string[])];
  return flags.map((flag) => {
    const [name, value] = flag.split(/=(.*)/s);
    return `--chrome-flags=${value !== undefined && /\s/.test(value) ? `${name}="${value}"` : flag}`;
  });
}

function runCli(url: string): Promise<Lhr> {
  const args = [
    CLI,
    url,
    '--output=json',
    '--output-path=stdout',
    '--quiet',
    '--no-enable-error-reporting',
    `--only-categories=${CATEGORIES.join(',')}`,
    ...chromeFlags(),
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      env: { ...process.env, CHROME_PATH: chromiumPath() as string },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => {
      err = (err + chunk.toString('utf8')).slice(-4000);
    });
    // Lighthouse stops waiting for a page after 45 s of its own; this caps a run that hangs
    // anyway. SIGINT first: on it, Lighthouse's launcher closes the Chromium it started.
    const timer = setTimeout(() => {
      child.kill('SIGINT');
      setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
    }, RUN_TIMEOUT_MS);
    child.once('error', reject);
    child.once('exit', (code) => {
      clearTimeout(timer);
      if (code !== 0) return reject(new Error(`lighthouse ${url} exited ${code}: ${err.trim()}`));
      try {
        resolve(JSON.parse(Buffer.concat(out).toString('utf8')) as Lhr);
      } catch (error) {
        reject(new Error(`lighthouse ${url}: no JSON report (${String(error)}): ${err.trim()}`));
      }
    });
  });
}

/** Where each scored audit counts (an audit may count in several; the first is kept). */
function categoryOf(lhr: Lhr): Map<string, Category> {
  const map = new Map<string, Category>();
  for (const category of CATEGORIES) {
    for (const ref of lhr.categories[category].auditRefs) {
      if (!map.has(ref.id)) map.set(ref.id, category);
    }
  }
  return map;
}

function readRun(lhr: Lhr, url: string): PageRun {
  if (lhr.runtimeError) {
    throw new Error(`lighthouse ${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  }
  const scores = Object.fromEntries(
    CATEGORIES.map((c) => [c, lhr.categories[c].score ?? Number.NaN]),
  ) as Record<Category, number>;
  const requests = lhr.audits['network-requests']?.details?.items ?? [];
  const foreign = requests.filter(
    (r) => r.url && !/^(?:https?:\/\/127\.0\.0\.1[:/]|data:|blob:)/.test(r.url),
  );
  if (foreign.length > 0) {
    throw new Error(`the page requested beyond loopback: ${foreign.map((r) => r.url).join(', ')}`);
  }
  const widget = requests.find((r) => r.url && WIDGET_BUNDLE.test(new URL(r.url).pathname));
  const where = categoryOf(lhr);
  const findings = Object.values(lhr.audits)
    .filter(
      (a) =>
        a.score !== null &&
        a.score < 1 &&
        where.has(a.id) &&
        ['binary', 'numeric', 'metricSavings'].includes(a.scoreDisplayMode),
    )
    .map((a) => ({
      id: a.id,
      title: a.title,
      score: a.score ?? 0,
      category: where.get(a.id) as Category,
    }));
  return {
    scores,
    cls: lhr.audits['cumulative-layout-shift']?.numericValue ?? Number.NaN,
    lcp: lhr.audits['largest-contentful-paint']?.numericValue ?? Number.NaN,
    widgetTransfer: widget?.transferSize ?? Number.NaN,
    totalTransfer: requests.reduce((sum, r) => sum + (r.transferSize ?? 0), 0),
    findings,
    errors: Object.values(lhr.audits)
      .filter((a) => a.scoreDisplayMode === 'error')
      .map((a) => a.id),
  };
}

/**
 * Loads each page and every file it names once, uncounted, asking for brotli
 * alone: the shop makes a file's brotli form on its first request (in the
 * background, sending gzip meanwhile), and the runs should see what every later
 * visitor gets.
 */
async function warmUp(base: string, paths: readonly string[]): Promise<void> {
  const files = new Set<string>();
  for (const path of paths) {
    const html = await (await fetch(new URL(path, base))).text();
    for (const match of html.matchAll(/"(\/(?!\/)[^"\s]+\.(?:js|css|svg))"/g)) {
      if (match[1]) files.add(match[1]);
    }
  }
  for (const file of files) {
    const response = await fetch(new URL(file, base), { headers: { 'accept-encoding': 'br' } });
    await response.arrayBuffer();
  }
}

/** A demo shop already running elsewhere (say, another checkout's `npm start`), audited alongside. */
export interface OtherShop {
  label: string;
  url: string;
}

/**
 * Lighthouse `runs` times on each of `paths` of a demo shop started here (and of
 * `others`, in the same turns: one run of every page of every shop per round).
 */
export async function measureLighthouse(
  paths: readonly string[],
  runs: number,
  others: readonly OtherShop[] = [],
): Promise<LighthouseResult> {
  const sandbox = await createSandbox({ port: 0, host: '127.0.0.1' });
  try {
    const shop = await startServerExample({
      providerBaseUrl: sandbox.url,
      providerApiKey: sandbox.apiKey,
      merchantCode: sandbox.merchantCode,
      port: 0,
    });
    try {
      const shops = [{ label: 'this checkout', url: shop.url }, ...others];
      for (const { url } of shops) await warmUp(url, paths);
      const result: LighthouseResult = {
        lighthouse: '',
        chromium: '',
        pages: shops.flatMap(({ label, url }) =>
          paths.map((path) => ({ shop: label, path, url: new URL(path, url).href, runs: [] })),
        ),
      };
      for (let round = 0; round < runs; round++) {
        // Flipped every round, so neither shop always goes first.
        for (const page of round % 2 === 0 ? result.pages : [...result.pages].reverse()) {
          const lhr = await runCli(page.url);
          result.lighthouse = lhr.lighthouseVersion;
          result.chromium = /Chrome\/([\d.]+)/.exec(lhr.environment.hostUserAgent)?.[1] ?? '?';
          page.runs.push(readRun(lhr, page.url));
        }
      }
      return result;
    } finally {
      await shop.close();
    }
  } finally {
    await sandbox.close();
  }
}

/** The median of one number over a page's runs. */
export function medianOf(runs: readonly PageRun[], pick: (run: PageRun) => number): number {
  return median(runs.map(pick));
}

/**
 * Each finding of a page with the number of runs it appeared in and its median
 * score over those runs, worst first.
 */
export function findingsOf(
  runs: readonly PageRun[],
): { id: string; category: Category; runs: number; score: number }[] {
  const byId = new Map<string, { category: Category; scores: number[] }>();
  for (const run of runs) {
    for (const f of run.findings) {
      const entry = byId.get(f.id) ?? { category: f.category, scores: [] };
      entry.scores.push(f.score);
      byId.set(f.id, entry);
    }
  }
  return [...byId]
    .map(([id, e]) => ({
      id,
      category: e.category,
      runs: e.scores.length,
      score: median(e.scores),
    }))
    .sort((a, b) => a.score - b.score || a.id.localeCompare(b.id));
}

/**
 * This checkout's demo against another running one, side by side in one run:
 *
 *   node --import tsx bench/lighthouse.ts http://127.0.0.1:PORT/ [RUNS] [PATHS]
 *
 * e.g. with main's shop started as `PORT=0 SANDBOX_PORT=0 npm start` in a worktree
 * of main. RUNS defaults to 5, PATHS (comma-separated) to `/,/?redirect=0`.
 */
async function compare(other: string, runs: number, paths: string[]): Promise<void> {
  const result = await measureLighthouse(paths, runs, [{ label: other, url: other }]);
  console.log(
    `Lighthouse ${result.lighthouse}, mobile preset, headless Chromium ${result.chromium}; median (min-max) of ${runs} runs, shops and pages in turns`,
  );
  const spread = (values: number[], digits: number) => {
    const sorted = [...values].sort((a, b) => a - b);
    const f = (n: number | undefined) => (n ?? Number.NaN).toFixed(digits);
    return `${f(median(sorted))} (${f(sorted[0])}-${f(sorted.at(-1))})`;
  };
  for (const { shop, path, runs: list } of result.pages) {
    const scores = CATEGORIES.map(
      (c) =>
        `${c} ${spread(
          list.map((r) => r.scores[c]),
          2,
        )}`,
    ).join(', ');
    console.log(
      `${shop} ${path}: ${scores}; CLS ${spread(
        list.map((r) => r.cls),
        3,
      )}; LCP ${spread(
        list.map((r) => r.lcp),
        0,
      )} ms; widget ${spread(
        list.map((r) => r.widgetTransfer),
        0,
      )} B; page ${spread(
        list.map((r) => r.totalTransfer),
        0,
      )} B`,
    );
    const findings = findingsOf(list).map(
      (f) => `${f.id} ${f.score.toFixed(2)} ${f.runs}/${list.length}`,
    );
    console.log(`  findings: ${findings.join('; ') || 'none'}`);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const [other, runs, paths] = process.argv.slice(2);
  if (!other) {
    console.error('usage: node --import tsx bench/lighthouse.ts OTHER_SHOP_URL [RUNS] [PATHS]');
    process.exit(2);
  }
  await compare(other, Number(runs ?? 5), (paths ?? '/,/?redirect=0').split(','));
}
