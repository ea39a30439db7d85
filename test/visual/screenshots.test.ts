/**
 * Every state of the built widget, drawn by the engine ENGINE names (`npm test` runs
 * Chromium, Firefox and WebKit in turn), light and dark, 360 and 768 px wide, compared with
 * the baselines in test/visual/baselines/<engine>/; and in each state, at each width, the
 * layout check (layout.ts). One browser for the whole run, one merchant's page after another
 * in its frame.
 *
 *   npm run screenshots        writes the baselines (and the README's shots) instead
 *
 * A shot that differs is written to test-results/visual/<engine>/ beside its baseline and an
 * image of their differences, all three side by side on that folder's review.html (review.ts);
 * writing the baselines rewrites only those that differ, and lists them on the same page.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
// @ts-expect-error -- a plain .mjs helper shared with the other runners; it has no type declarations
import { ENGINE_NAMES, engineFromEnv } from '../../scripts/browser.mjs';
import type { ColorScheme, Driver, Engine } from '../engines/driver.ts';
import { launch } from '../engines/launch.ts';
import { type Area, compact, compare, zoomed } from './compare.ts';
import { BOXES, type Box, crowded } from './layout.ts';
import { type Changed, Review } from './review.ts';
import { startVisualServer, type VisualServer } from './server.ts';
import { type Scene, STATES, type State } from './states.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const engine = engineFromEnv() as Engine;
const update = process.env.UPDATE_SCREENSHOTS === '1';
const baselines = join(root, 'test/visual/baselines', engine);
const results = join(root, 'test-results/visual', engine);
const docs = join(root, 'docs/screenshots');
const review = new Review(
  results,
  `Screenshots in ${ENGINE_NAMES[engine]}: ${update ? 'baselines written anew' : 'shots that differ from their baselines'}`,
);

// The same fonts, drawn the same way, in every browser this process starts (fonts.conf).
process.env.FONTCONFIG_FILE = fileURLToPath(new URL('./fonts.conf', import.meta.url));

export const WIDTHS = [360, 768] as const;

/**
 * The README's shots: these states, at 360 px, copied from Chromium's baselines by the run
 * that writes them (and checked to be those baselines' bytes by every other run).
 */
export const README_STATES = ['form', 'field-errors', 'challenge', 'success', 'declined'];
const readmeShot = (state: string, scheme: ColorScheme) =>
  join(docs, `widget-${state}-${scheme}-360.png`);

/** Waits until the page has drawn what changed: two animation frames. */
const DRAWN =
  'await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));';

async function setWidth(driver: Driver, width: number): Promise<void> {
  await driver.run(
    `window.frameElement.style.width = arguments[0] + 'px';
     await document.fonts.ready;
     ${DRAWN}`,
    width,
  );
}

describe(`every state of the built widget in ${ENGINE_NAMES[engine]}`, () => {
  let server: VisualServer;
  let driver: Driver;
  let scheme: ColorScheme = 'light';
  let scene: Scene;

  before(async () => {
    server = await startVisualServer();
    driver = await launch();
    await driver.setViewport(800, 900);
    await driver.setColorScheme(scheme);
    await driver.goto(server.stageUrl);
    scene = { driver, server, checkoutId: '' };
    mkdirSync(baselines, { recursive: true });
    mkdirSync(results, { recursive: true });
  });

  after(async () => {
    await driver?.close();
    await server?.close();
    const page = review.write();
    if (review.count > 0) {
      console.log(
        `${review.count} shots ${update ? 'written anew' : 'differ'}: before, after and their difference in ${page}`,
      );
    }
  });

  /**
   * Shoots the widget with the page's margin around it (focus rings reach past its box),
   * and compares the shot with its baseline (or writes the baseline).
   */
  async function shoot(name: string, masks: readonly string[]): Promise<string | undefined> {
    const areas = await driver.run<Area[]>(
      `window.stillWidget();
       // Typing in a low field scrolls the page that holds the frame: WebKit then cuts an
       // element's shot where the page's top was.
       top.scrollTo(0, 0);
       ${DRAWN}
       const main = document.querySelector('main').getBoundingClientRect();
       const root = document.querySelector('payment-widget').shadowRoot;
       return arguments[0].flatMap((part) =>
         [...root.querySelectorAll('[part~="' + part + '"]')].map((el) => {
           const r = el.getBoundingClientRect();
           return { left: r.left - main.left, top: r.top - main.top, width: r.width, height: r.height };
         }),
       );`,
      masks,
    );
    const shot = compact(await driver.screenshot('main'), areas);
    const baseline = join(baselines, `${name}.png`);
    const seen = existsSync(baseline) ? compare(shot, readFileSync(baseline)) : undefined;
    // Within the tolerance, a baseline stays as it is, bytes and all.
    if (seen?.kind === 'same') return undefined;
    const after = join(results, `${name}.png`);
    writeFileSync(after, shot);
    let why = 'new';
    let diff: string | undefined;
    if (seen?.kind === 'size') why = `${seen.actual} instead of ${seen.expected}`;
    let zoom: Changed['zoom'];
    if (seen?.kind === 'pixels') {
      why = `${seen.different} pixels differ`;
      diff = join(results, `${name}-diff.png`);
      writeFileSync(diff, seen.diff);
      const crops = zoomed(shot, readFileSync(baseline));
      if (crops) {
        zoom = {
          before: join(results, `${name}-zoom-before.png`),
          after: join(results, `${name}-zoom-after.png`),
        };
        writeFileSync(zoom.before, crops.expected);
        writeFileSync(zoom.after, crops.actual);
      }
    }
    review.add({ name, why, after, ...(diff && { diff }), ...(zoom && { zoom }) }, baseline);
    if (update) {
      writeFileSync(baseline, shot);
      return undefined;
    }
    if (!seen) return `${name}: no baseline (npm run screenshots writes them)`;
    return `${name}: ${why}, see ${diff ?? after}`;
  }

  /**
   * Both schemes at both widths, the layout check at both widths; the second scheme in the
   * order the first left the page: one change of scheme per state, the slowest step in WebKit.
   */
  async function shootBoth(state: State, layout: string[], differences: string[]): Promise<void> {
    const schemes: ColorScheme[] = scheme === 'light' ? ['light', 'dark'] : ['dark', 'light'];
    for (const [round, next] of schemes.entries()) {
      if (next !== scheme) {
        await driver.setColorScheme(next);
        scheme = next;
      }
      for (const width of round === 0 ? WIDTHS : [...WIDTHS].reverse()) {
        await setWidth(driver, width);
        if (round === 0) {
          for (const pair of crowded(await driver.run<Box[]>(BOXES))) {
            layout.push(`${width} px: ${pair}`);
          }
        }
        const name = `${state.name}-${scheme}-${width}`;
        const difference = await shoot(name, state.masks ?? []);
        if (difference) differences.push(difference);
        if (
          update &&
          engine === 'chromium' &&
          width === 360 &&
          README_STATES.includes(state.name)
        ) {
          writeFileSync(
            readmeShot(state.name, scheme),
            readFileSync(join(baselines, `${name}.png`)),
          );
        }
      }
    }
  }

  for (const state of STATES) {
    it(state.name, { timeout: 120_000 }, async () => {
      const differences: string[] = [];
      const layout: string[] = [];
      await driver.inFrame(async () => {
        try {
          await state.reach(scene);
          await shootBoth(state, layout, differences);
        } finally {
          await state.leave?.(scene);
        }
      });
      // In every state, at both widths: no two boxes meet.
      assert.deepEqual(
        { crowded: layout, differences },
        { crowded: [], differences: [] },
        'boxes that overlap or touch, and shots that differ from their baselines',
      );
    });
  }

  if (engine === 'chromium' && !update) {
    it("the README's shots are Chromium's baselines", () => {
      for (const state of README_STATES) {
        for (const scheme of ['light', 'dark'] as const) {
          const baseline = readFileSync(join(baselines, `${state}-${scheme}-360.png`));
          assert.ok(
            readFileSync(readmeShot(state, scheme)).equals(baseline),
            readmeShot(state, scheme),
          );
        }
      }
    });
  }
});
