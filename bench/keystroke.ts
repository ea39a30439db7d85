// What one keystroke costs the shopper: a card number typed key by key into the
// widget's card-number field and into a bare <input> on a blank page, in one
// headless Chromium whose main thread is slowed 4x (CDP
// Emulation.setCPUThrottlingRate, as DevTools' "4x slowdown"), the targets taking
// turns round by round so a load that comes and goes on a shared machine weighs
// on all of them alike.
//
// A keystroke's cost is what the Event Timing API reports for it: from the key's
// hardware timestamp to the next frame presented after its handlers ran. A key's
// entries (keydown, keypress with its beforeinput and input, keyup) are those that
// start between the frame before it and the frame after it; the slowest is the
// keystroke's cost, as INP counts an interaction. The observer takes entries of
// 16 ms and more (`durationThreshold: 16`, the API's floor), so a faster keystroke
// counts as 16 ms; Chromium rounds durations to 8 ms.
//
// The page, the widget and its backend are answered in-process (bench/shop-page.ts).
//
//   node --import tsx bench/keystroke.ts profile OUT.cpuprofile [IIFE]
//
// writes a CPU profile of one round of typing into a build (this one's by
// default) at the same throttling, and prints where its time went; a build made
// without minification (`minify: false`) names every function.
//
//   node --import tsx bench/keystroke.ts cpu ROUNDS [IIFE...]
//
// prints the main thread's CPU time per keystroke, from Chromium traces, for
// builds beside the bare input: what the widget's own work costs, steadier on a
// shared machine than any wall-clock number.
import { writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import type { Browser, CDPSession, Page } from 'playwright-core';
import { median } from './load.ts';
import { IIFE } from './measure.ts';
import { launchChromium, SHOP_ORIGIN, serveShop } from './shop-page.ts';

/** A Visa test number: 16 keystrokes; the field regroups it after every fourth digit. */
export const CARD_NUMBER = '4242424242424242';
export const CPU_THROTTLING = 4;

/** One Event Timing entry of a keystroke, as the page keeps it. */
interface KeyEntry {
  startTime: number;
  duration: number;
}

// Each page keeps the Event Timing entries of its keystrokes in window.__keys,
// from before its first script runs, and in window.__marks the time each key was
// about to be pressed (see nextFrame).
const OBSERVE = `<script>
  window.__keys = [];
  window.__marks = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries())
      if (e.interactionId) window.__keys.push({ startTime: e.startTime, duration: e.duration });
  }).observe({ type: 'event', durationThreshold: 16, buffered: true });
</script>`;

const WIDGET_PAGE = `<!doctype html>
<html lang="en-GB"><head><meta charset="utf-8"><title>keystroke bench</title>${OBSERVE}</head>
<body>
<payment-widget checkout-id="chk_bench" endpoint="/payments"></payment-widget>
<script>
  document.addEventListener('payment-ready', () => { window.__ready = true; }, { once: true });
</script>
<script src="/payment-widget.iife.js"></script>
</body></html>`;

const BARE_PAGE = `<!doctype html>
<html lang="en-GB"><head><meta charset="utf-8"><title>keystroke bench</title>${OBSERVE}</head>
<body><input id="number"><script>window.__ready = true;</script></body></html>`;

/** A page to type into: the widget of one build, or the bare input. */
export interface Target {
  name: string;
  /** The script-tag build to load; none for the bare input. */
  iife?: string;
}

/** One round of typing on one target. */
export interface KeystrokeRound {
  /** Each keystroke's cost in ms (Event Timing), in the order typed; 16 stands for "under 16". */
  keys: number[];
  /** The slowest of them. */
  slowest: number;
}

export interface KeystrokeResult {
  chromium: string;
  targets: { target: Target; rounds: KeystrokeRound[] }[];
}

/**
 * Resolves once the page has produced the frame after the current one, and
 * marks that moment: a key pressed next has its Event Timing entries after it.
 */
function nextFrame(page: Page): Promise<void> {
  return page.evaluate(
    () =>
      new Promise<void>((done) =>
        requestAnimationFrame(() =>
          requestAnimationFrame(() => {
            (window as unknown as { __marks: number[] }).__marks.push(performance.now());
            done();
          }),
        ),
      ),
  );
}

/** A fresh context (empty caches, like a first visit) with the target's page, its field focused. */
async function open(browser: Browser, target: Target): Promise<{ page: Page; cdp: CDPSession }> {
  const context = await browser.newContext();
  await serveShop(context, target.iife ? WIDGET_PAGE : BARE_PAGE, target.iife);
  const page = await context.newPage();
  await page.goto(`${SHOP_ORIGIN}/`);
  await page.waitForFunction(() => (window as { __ready?: boolean }).__ready, null, {
    timeout: 10_000,
  });
  // Playwright's locators pierce open shadow roots: one selector finds either field.
  await page.locator('#number').focus();
  await nextFrame(page);
  return { page, cdp: await context.newCDPSession(page) };
}

/**
 * Types CARD_NUMBER key by key, each key after the frame that followed the one
 * before, so that each is an interaction of its own, as a person's keys are.
 */
async function typeNumber(page: Page): Promise<void> {
  for (const key of CARD_NUMBER) {
    await page.keyboard.press(key);
    await nextFrame(page);
  }
}

async function oneRound(browser: Browser, target: Target): Promise<KeystrokeRound> {
  const { page, cdp } = await open(browser, target);
  try {
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_THROTTLING });
    await typeNumber(page);
    // The last key's entry is queued once its frame is presented: one more frame.
    await nextFrame(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
    const { entries, marks, value } = await page.evaluate(() => {
      const root = document.querySelector('payment-widget')?.shadowRoot ?? document;
      const field = root.querySelector<HTMLInputElement>('#number');
      const w = window as unknown as { __keys: KeyEntry[]; __marks: number[] };
      return { entries: w.__keys, marks: w.__marks, value: field?.value ?? '' };
    });
    if (value.replace(/\D/g, '') !== CARD_NUMBER) {
      throw new Error(`${target.name}: typed ${CARD_NUMBER}, the field holds "${value}"`);
    }
    // Marks: the one open() made before the first key, then one after each key.
    const keys = perKeystroke(entries, marks.slice(0, CARD_NUMBER.length + 1));
    return { keys, slowest: Math.max(...keys) };
  } finally {
    await page.context().close();
  }
}

/**
 * Each key's cost, in the order typed: the slowest entry that started between
 * the marks around it, 16 for a key that left none.
 */
function perKeystroke(entries: KeyEntry[], marks: number[]): number[] {
  return marks.slice(0, -1).map((mark, i) => {
    const next = marks[i + 1] ?? Number.POSITIVE_INFINITY;
    const own = entries.filter((e) => e.startTime >= mark && e.startTime < next);
    return Math.max(16, ...own.map((e) => e.duration));
  });
}

/**
 * `rounds` rounds of typing on every target, in one browser, the targets in
 * turns (the order rotated every round), after one uncounted round of each.
 */
export async function measureKeystrokes(
  targets: Target[],
  rounds: number,
  timeoutMs = 600_000,
): Promise<KeystrokeResult> {
  const browser = await launchChromium();
  const deadline = Date.now() + timeoutMs;
  const result: KeystrokeResult = {
    chromium: browser.version(),
    targets: targets.map((target) => ({ target, rounds: [] })),
  };
  try {
    for (let round = -1; round < rounds && Date.now() < deadline; round++) {
      const shift = Math.max(0, round) % targets.length;
      const order = [...result.targets.slice(shift), ...result.targets.slice(0, shift)];
      for (const entry of order) {
        const r = await oneRound(browser, entry.target);
        if (round >= 0) entry.rounds.push(r);
      }
    }
  } finally {
    await browser.close();
  }
  return result;
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples?: number[];
  timeDeltas?: number[];
}

/** Prints a CPU profile's heaviest functions, by self and by total time. */
function summarise(profile: CpuProfile): void {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const name = ({ callFrame: f }: ProfileNode) =>
    `${f.functionName || '(anonymous)'} ${f.url.split('/').pop()}:${f.lineNumber + 1}:${f.columnNumber + 1}`;
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  for (let i = 0; i < samples.length; i++) {
    // A sample's time is the gap to the next one.
    const ms = (deltas[i + 1] ?? 0) / 1000;
    let node = byId.get(samples[i] as number);
    if (!node) continue;
    self.set(name(node), (self.get(name(node)) ?? 0) + ms);
    const counted = new Set<string>();
    for (; node; node = byId.get(parent.get(node.id) ?? -1)) {
      if (!counted.has(name(node))) total.set(name(node), (total.get(name(node)) ?? 0) + ms);
      counted.add(name(node));
    }
  }
  const top = (m: Map<string, number>, n: number) =>
    [...m.entries()].sort((a, b) => b[1] - a[1]).slice(0, n);
  console.log(`ms of ${CARD_NUMBER.length} keystrokes at ${CPU_THROTTLING}x, self:`);
  for (const [k, v] of top(self, 20)) console.log(`  ${v.toFixed(1).padStart(8)}  ${k}`);
  console.log('total (the function and what it called):');
  for (const [k, v] of top(total, 40)) console.log(`  ${v.toFixed(1).padStart(8)}  ${k}`);
}

/** One uncounted round, then a CPU profile of a round of typing into `iife`, written to `out`. */
async function profile(out: string, iife: string): Promise<void> {
  const browser = await launchChromium();
  try {
    await oneRound(browser, { name: 'warm-up', iife });
    const { page, cdp } = await open(browser, { name: 'profiled', iife });
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_THROTTLING });
    await cdp.send('Profiler.start');
    await typeNumber(page);
    const { profile } = await cdp.send('Profiler.stop');
    writeFileSync(out, JSON.stringify(profile));
    summarise(profile);
  } finally {
    await browser.close();
  }
}

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  /** The thread's CPU time, µs. */
  tdur?: number;
  args?: { data?: { type?: string } };
}

/** Main-thread CPU time of one round: each key's keypress task, and every task up to the next key. */
interface CpuRound {
  keypress: number[];
  tasks: number[];
}

/**
 * One round of typing, traced: the CPU time (not wall time) the page's main thread spent,
 * with the CPU at full speed. Thread time does not count what other processes take, so it
 * holds still on a loaded machine; under CDP throttling it would count the throttle's
 * pauses too.
 */
async function cpuRound(browser: Browser, target: Target): Promise<CpuRound> {
  const { page } = await open(browser, target);
  try {
    await browser.startTracing(page, {
      categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline'],
    });
    await typeNumber(page);
    const events = (
      JSON.parse((await browser.stopTracing()).toString()) as { traceEvents: TraceEvent[] }
    ).traceEvents;
    const keypresses = events
      .filter((e) => e.name === 'EventDispatch' && e.args?.data?.type === 'keypress')
      .sort((a, b) => a.ts - b.ts);
    const first = keypresses[0];
    if (keypresses.length !== CARD_NUMBER.length || !first) {
      throw new Error(`${target.name}: ${keypresses.length} keypress events traced`);
    }
    // The page's main thread is the one that dispatched the keys.
    const tasks = events.filter(
      (e) => e.name === 'RunTask' && e.ph === 'X' && e.pid === first.pid && e.tid === first.tid,
    );
    const ms = (e: TraceEvent) => (e.tdur ?? 0) / 1000;
    return {
      keypress: keypresses.map(ms),
      tasks: keypresses.map((key, i) => {
        const next = keypresses[i + 1]?.ts ?? Number.POSITIVE_INFINITY;
        // From the task that carried the key to the one that carries the next.
        const own = tasks.filter(
          (t) => t.ts + (t.dur ?? 0) >= key.ts && t.ts + (t.dur ?? 0) < next,
        );
        return own.reduce((sum, t) => sum + ms(t), 0);
      }),
    };
  } finally {
    await page.context().close();
  }
}

/**
 * Main-thread CPU per keystroke of builds beside the bare input, `rounds` rounds in turns,
 * medians printed:
 *
 *   node --import tsx bench/keystroke.ts cpu ROUNDS [IIFE...]
 */
async function cpu(rounds: number, iifes: string[]): Promise<void> {
  const targets: Target[] = [
    ...iifes.map((iife) => ({ name: iife, iife })),
    { name: 'bare <input>' },
  ];
  const results = new Map<Target, CpuRound[]>(targets.map((t) => [t, []]));
  const browser = await launchChromium();
  try {
    for (let round = -1; round < rounds; round++) {
      for (const target of round % 2 === 0 ? targets : [...targets].reverse()) {
        const r = await cpuRound(browser, target);
        if (round >= 0) results.get(target)?.push(r);
      }
    }
  } finally {
    await browser.close();
  }
  const mid = (values: number[]) => median(values).toFixed(2);
  console.log(`main-thread CPU, ms, median of ${rounds} rounds (CPU at full speed):`);
  for (const [target, rs] of results) {
    console.log(
      `  ${target.name}: 1st keypress ${mid(rs.map((r) => r.keypress[0] ?? Number.NaN))}, 2nd-16th keypress ${mid(rs.map((r) => median(r.keypress.slice(1))))}, all 16 keystrokes ${mid(rs.map((r) => r.tasks.reduce((a, b) => a + b, 0)))}`,
    );
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [verb, first, ...rest] = process.argv.slice(2);
  if (verb === 'profile' && first) await profile(first, rest[0] ?? IIFE);
  else if (verb === 'cpu' && Number(first) > 0)
    await cpu(Number(first), rest.length > 0 ? rest : [IIFE]);
  else {
    throw new Error(
      'usage: node --import tsx bench/keystroke.ts profile OUT.cpuprofile [IIFE] | cpu ROUNDS [IIFE...]',
    );
  }
}
