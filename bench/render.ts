// Render time: from the moment the page starts the widget's script to an
// interactive form, in headless Chromium, median of N fresh browser contexts.
//
// The widget sets no performance.mark of its own, so the page sets `pw:script`
// right before the <script> tag and `pw:ready` on the `payment-ready` event
// (fields rendered and payment methods known). The backend is a
// page.route fake answering at once, so the number is the widget's own work
// plus two in-process round trips, never the network.
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { median } from './load.ts';
import { IIFE } from './measure.ts';
import { launchChromium, SHOP_ORIGIN, serveShop } from './shop-page.ts';

const PAGE = `<!doctype html>
<html lang="en-GB"><head><meta charset="utf-8"><title>render bench</title></head>
<body>
<payment-widget checkout-id="chk_bench" endpoint="/payments"></payment-widget>
<script>
  document.addEventListener('payment-ready', () => {
    performance.mark('pw:ready');
    const card = document.querySelector('payment-widget').shadowRoot
      ?.querySelector('input[autocomplete="cc-number"]');
    const start = performance.getEntriesByName('pw:script')[0].startTime;
    const since = (t) => t - start;
    const script = performance.getEntriesByName(location.origin + '/payment-widget.iife.js')[0];
    const api = performance.getEntriesByType('resource')
      .filter((r) => new URL(r.name).pathname.startsWith('/payments/'));
    window.__bench = {
      fetched: since(script.responseEnd),
      evaluated: since(performance.getEntriesByName('pw:evaluated')[0].startTime),
      ready: since(performance.getEntriesByName('pw:ready')[0].startTime),
      backend: api.reduce((sum, r) => sum + r.duration, 0),
      cardInput: Boolean(card && !card.disabled),
    };
  }, { once: true });
  performance.mark('pw:script');
</script>
<script src="/payment-widget.iife.js"></script>
<script>performance.mark('pw:evaluated');</script>
</body></html>`;

/** One page load, in ms from the `pw:script` mark. */
export interface RenderSample {
  /** The script's bytes arrived (page.route answers from this process). */
  fetched: number;
  /** Its synchronous evaluation ended: the element is defined. */
  evaluated: number;
  /** `payment-ready`: the form is on screen and usable. */
  ready: number;
  /** Time spent waiting for the fake backend's two answers (checkout, methods). */
  backend: number;
  /**
   * Main-thread task time of the whole page load up to `payment-ready` (CDP
   * Performance.getMetrics TaskDuration: parse, style, layout, script). Tasks are
   * timed in wall time, so a loaded machine still inflates it.
   */
  mainThread: number;
  /**
   * Of that, time running JavaScript (ScriptDuration): the widget's own cost, and
   * the steadiest of these numbers on a shared machine.
   */
  script: number;
}

export interface RenderResult {
  samples: RenderSample[];
  chromium: string;
}

/** Browsers that have had their uncounted warm-up load. */
const warmed = new WeakSet<Browser>();

/**
 * Page loads of the script-tag build at `file` (by default the one in dist/), in
 * `shared` if given (left open) or else in a Chromium of its own (closed at the end).
 */
export async function measureRender(
  runs = 20,
  timeoutMs = 60_000,
  file: string = IIFE,
  shared?: Browser,
): Promise<RenderResult> {
  const browser = shared ?? (await launchChromium());
  const deadline = Date.now() + timeoutMs;
  const result: RenderResult = { samples: [], chromium: browser.version() };
  try {
    // One uncounted warm-up per browser: its first page also pays for starting
    // its renderer and GPU processes, which no shopper's page does.
    for (let i = warmed.has(browser) ? 0 : -1; i < runs && Date.now() < deadline; i++) {
      // A fresh context per run: empty HTTP and code caches, like a first visit.
      const context = await browser.newContext();
      await serveShop(context, PAGE, file);
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send('Performance.enable');
      await page.goto(`${SHOP_ORIGIN}/`);
      const handle = await page.waitForFunction(
        () => (window as { __bench?: unknown }).__bench,
        null,
        {
          timeout: 10_000,
        },
      );
      const { metrics } = await cdp.send('Performance.getMetrics');
      const metric = (name: string) => (metrics.find((m) => m.name === name)?.value ?? 0) * 1000;
      const { cardInput, ...timings } = (await handle.jsonValue()) as Omit<
        RenderSample,
        'mainThread' | 'script'
      > & { cardInput: boolean };
      const sample: RenderSample = {
        ...timings,
        mainThread: metric('TaskDuration'),
        script: metric('ScriptDuration'),
      };
      if (!cardInput) throw new Error('payment-ready fired without an enabled card number input');
      if (i >= 0) result.samples.push(sample);
      else warmed.add(browser);
      await context.close();
    }
  } finally {
    if (!shared) await browser.close();
  }
  return result;
}

/**
 * Two builds side by side on a machine others share: short rounds of each in
 * turn (the order flipped every round), so a load that comes and goes weighs
 * on both alike. Prints the medians and their ratio.
 *
 *   node --import tsx bench/render.ts OTHER.iife.js [ROUNDS]
 *
 * compares dist/payment-widget.iife.js with OTHER (say, main's build).
 */
async function compare(other: string, rounds: number): Promise<void> {
  const files: Record<string, string> = { 'this build': IIFE, [other]: other };
  const names = Object.keys(files);
  const script = Object.fromEntries(names.map((name) => [name, [] as number[]]));
  const ready = Object.fromEntries(names.map((name) => [name, [] as number[]]));
  // One browser for every round: each load still gets a fresh context.
  const browser = await launchChromium();
  try {
    for (let round = 0; round < rounds; round++) {
      for (const name of round % 2 === 0 ? names : [...names].reverse()) {
        const { samples } = await measureRender(6, 60_000, files[name], browser);
        script[name]?.push(...samples.map((s) => s.script));
        ready[name]?.push(...samples.map((s) => s.ready));
      }
    }
  } finally {
    await browser.close();
  }
  for (const name of names) {
    const ms = (values: number[] = []) => median(values).toFixed(1);
    console.log(
      `${name}: running JavaScript ${ms(script[name])} ms median, payment-ready ${ms(ready[name])} ms median (${script[name]?.length} loads)`,
    );
  }
  const ratio = median(script['this build'] ?? []) / median(script[other] ?? []);
  console.log(`running JavaScript, this build / ${other}: ${ratio.toFixed(2)}x`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [other, rounds = '8'] = process.argv.slice(2);
  if (!other) throw new Error('usage: node --import tsx bench/render.ts OTHER.iife.js [ROUNDS]');
  await compare(other, Number(rounds));
}
