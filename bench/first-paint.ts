// What a shopper waits for before the card form, and what their first key costs while the
// rest of the widget loads: a build's script-tag page loaded in headless Chromium with its
// main thread slowed 4x (as keystroke.ts), from a server on loopback that serves the build's
// folder as the demo does, gzipped (the parts and locales fetched from beside the bundle),
// with the handler's two reads answered at once. Every build (this checkout's, and
// BENCH_BASELINE's beside it) is loaded in turns round by round, so a load that comes and goes
// weighs on all alike, each round twice: on a cold cache (a new browser context) and on a
// warm one (the same page loaded again in that context: HTTP and code caches filled).
// Per load:
// - first paint: from the navigation's start to the frame that first draws the card-number
//   field (the first animation frame that finds it laid out);
// - script before first paint: the bytes over the wire of every script whose response had
//   ended by then (Resource Timing; a file under 1 KiB goes uncompressed, as the demo sends it), and of every script the page loaded once the network is idle;
// - first keystroke: a digit pressed into the field as soon as it is drawn, while the rest
//   loads: its cost by Event Timing (as keystroke.ts counts one, 16 = under 16), and when the
//   frame that shows it came, from the navigation's start.
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { serveFile } from '../server-example/static.ts';
import { CPU_THROTTLING } from './keystroke.ts';
import { median } from './load.ts';
import { intFromEnv, spread, table } from './report.ts';
import { CHECKOUT, launchChromium, METHODS } from './shop-page.ts';

/** A build to load: the `dist` folder of a checkout. */
export interface Build {
  name: string;
  dist: string;
}

/** One page load. */
export interface Load {
  paintMs: number;
  scriptBeforePaint: number;
  scriptInAll: number;
  keyMs: number;
  keyShownMs: number;
}

/** What a versioned script may be cached for: a warm load asks for none of them again. */
const CACHED = 'public, max-age=3600';

const PAGE = `<!doctype html>
<html lang="en-GB"><head><meta charset="utf-8"><title>first paint bench</title>
<script>
  window.__keys = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (e.interactionId) window.__keys.push(e.duration);
  }).observe({ type: 'event', durationThreshold: 16, buffered: true });
  const field = () => document.querySelector('payment-widget')?.shadowRoot?.querySelector('#number');
  // Each frame until the field is laid out, then until what is typed into it shows.
  const look = (now) => {
    const f = field();
    if (window.__paint === undefined && f && f.getBoundingClientRect().height > 0) window.__paint = now;
    if (f && f.value.length > 0) window.__shown = now;
    else requestAnimationFrame(look);
  };
  requestAnimationFrame(look);
</script></head>
<body>
<payment-widget checkout-id="chk_bench" endpoint="/payments"></payment-widget>
<script src="/payment-widget.iife.js"></script>
</body></html>`;

/**
 * Serves the page at `/`, the handler's two reads under /payments, and `dist` as the demo
 * serves its files (server-example/static.ts: compressed once and kept), asked for gzip
 * alone so that the bytes compare with the budgets, and cacheable for an hour, as a CDN would
 * answer a versioned script, so a warm load asks for none of them again.
 */
async function serveBuild(dist: string): Promise<{ origin: string; server: Server }> {
  const json = (res: ServerResponse, body: unknown) => {
    res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
    res.end(JSON.stringify(body));
  };
  const server = createServer(async (req, res) => {
    const { pathname } = new URL(req.url ?? '/', 'http://bench.invalid');
    if (pathname === '/') {
      res.writeHead(200, { 'content-type': 'text/html', 'cache-control': 'no-store' });
      return res.end(PAGE);
    }
    if (pathname === '/payments/checkouts/chk_bench') return json(res, CHECKOUT);
    if (pathname === '/payments/payment-methods') return json(res, METHODS);
    const request = new Request(`http://bench.invalid${pathname}`, {
      headers: { 'accept-encoding': 'gzip' },
    });
    const file = await serveFile(dist, pathname, request, { 'cache-control': CACHED });
    if (file === undefined) {
      res.writeHead(404);
      return res.end();
    }
    res.writeHead(file.status, Object.fromEntries(file.headers));
    res.end(Buffer.from(await file.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

/** Loads the page in `context` at 4x, types a digit once the field is drawn, and reads back. */
async function load(context: BrowserContext, origin: string): Promise<Load> {
  const page: Page = await context.newPage();
  try {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_THROTTLING });
    await page.goto(`${origin}/`, { waitUntil: 'commit' });
    await page.waitForFunction(() => (window as { __paint?: number }).__paint !== undefined, null, {
      polling: 'raf',
      timeout: 30_000,
    });
    await page.locator('#number').press('4');
    await page.waitForFunction(() => (window as { __shown?: number }).__shown !== undefined, null, {
      polling: 'raf',
      timeout: 30_000,
    });
    await page.waitForLoadState('networkidle');
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
    // Plain data out of the page (tsx would wrap a named function defined in it), summed here.
    const seen = await page.evaluate(() => ({
      paint: (window as unknown as { __paint: number }).__paint,
      shown: (window as unknown as { __shown: number }).__shown,
      keys: (window as unknown as { __keys: number[] }).__keys,
      scripts: performance
        .getEntriesByType('resource')
        .filter((e) => e.name.endsWith('.js'))
        .map((e) => e as PerformanceResourceTiming)
        .map((e) => ({ end: e.responseEnd, bytes: e.encodedBodySize })),
    }));
    const bytes = (list: { bytes: number }[]) => list.reduce((sum, e) => sum + e.bytes, 0);
    return {
      paintMs: seen.paint,
      scriptBeforePaint: bytes(seen.scripts.filter((e) => e.end <= seen.paint)),
      scriptInAll: bytes(seen.scripts),
      keyMs: Math.max(16, ...seen.keys),
      keyShownMs: seen.shown,
    };
  } finally {
    await page.close();
  }
}

/** `rounds` rounds over every build in turns, each a cold load then a warm one. */
export async function measureFirstPaint(
  builds: readonly Build[],
  rounds: number,
): Promise<{ chromium: string; runs: { build: Build; cold: Load[]; warm: Load[] }[] }> {
  const served = await Promise.all(builds.map((build) => serveBuild(build.dist)));
  const browser: Browser = await launchChromium();
  const runs = builds.map((build) => ({ build, cold: [] as Load[], warm: [] as Load[] }));
  try {
    for (let round = 0; round < rounds; round += 1) {
      for (const [i, run] of runs.entries()) {
        const context = await browser.newContext();
        try {
          run.cold.push(await load(context, served[i]!.origin));
          run.warm.push(await load(context, served[i]!.origin));
        } finally {
          await context.close();
        }
      }
    }
    return { chromium: browser.version(), runs };
  } finally {
    await browser.close();
    for (const { server } of served) server.close();
  }
}

/** `npm run bench -- first-paint`: this build, and BENCH_BASELINE's beside it when given. */
export async function firstPaintPhase(builds: readonly Build[]): Promise<void> {
  const rounds = intFromEnv('BENCH_FIRST_PAINT_ROUNDS', 10);
  const { chromium, runs } = await measureFirstPaint(builds, rounds);
  console.log(
    `## First paint (headless Chromium ${chromium}, CPU ${CPU_THROTTLING}x slower, the build's folder served gzipped from loopback; ${rounds} rounds per build, taking turns, each a cold load then a warm one; median (min-max))\n`,
  );
  const ms0 = (n: number) => n.toFixed(0);
  const bytes = (n: number) => n.toLocaleString('en-US');
  table(
    [
      'build',
      'cache',
      'script before first paint (B gzip)',
      'script in all (B gzip)',
      'first paint (ms)',
      'first key shown (ms)',
      'first key (ms, Event Timing)',
    ],
    runs.flatMap(({ build, cold, warm }) =>
      (
        [
          ['cold', cold],
          ['warm', warm],
        ] as const
      ).map(([cache, loads]) => [
        build.name,
        cache,
        cache === 'cold' ? bytes(median(loads.map((l) => l.scriptBeforePaint))) : '',
        cache === 'cold' ? bytes(median(loads.map((l) => l.scriptInAll))) : '',
        spread(
          loads.map((l) => l.paintMs),
          ms0,
        ),
        spread(
          loads.map((l) => l.keyShownMs),
          ms0,
        ),
        spread(
          loads.map((l) => l.keyMs),
          ms0,
        ),
      ]),
    ),
  );
}
