/**
 * Every state of the built widget, drawn by the engine ENGINE names (`npm test` runs
 * Chromium, Firefox and WebKit in turn) at the widths and in the schemes and looks its entry in
 * states.ts names, compared with the baselines in test/visual/baselines/<engine>/; and in each
 * state the layout check (layout.ts) at 320, 360, 768 and 1280 px, inside the widget's frames
 * too. One browser for the whole run, one merchant's page after another in its frame.
 *
 *   npm run screenshots        writes the baselines (and the README's shots) instead
 *
 * A shot that differs is written to test-results/visual/<engine>/ beside its baseline and an
 * image of their differences, all three side by side on that folder's review.html (review.ts);
 * writing the baselines rewrites only those that differ, and lists them on the same page.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
// @ts-expect-error -- a plain .mjs helper shared with the other runners; it has no type declarations
import { ENGINE_NAMES, engineFromEnv } from '../../scripts/browser.mjs';
import type { ColorScheme, Driver, Engine } from '../engines/driver.ts';
import { launch } from '../engines/launch.ts';
import { type Area, type Comparison, compact, compare, zoomed } from './compare.ts';
import { crowded, type Layout, leaving, unlike } from './layout.ts';
import { LAYOUT } from './layout-page.ts';
import { type Changed, Review } from './review.ts';
import { type Extra, type Look, WIDTHS, type Width } from './scene.ts';
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

/**
 * The widest frame each engine draws: the stage page's viewport is that and a margin wide.
 * WebKitGTK's MiniBrowser stays within 800 px on the suite's virtual display, so WebKit takes
 * no 1280 px shot (its layout check still reads every state there).
 */
const WIDEST: Record<Engine, Width> = { chromium: 1280, firefox: 1280, webkit: 768 };

/**
 * The README's shots: these states, at 360 px, copied from Chromium's baselines by the run
 * that writes them (and checked to be those baselines' bytes by every other run).
 */
export const README_STATES = ['form', 'field-errors', 'challenge', 'success', 'declined'];
const readmeShot = (state: string, scheme: ColorScheme) =>
  join(docs, `widget-${state}-${scheme}-360.png`);

/** How many more shots a shot that differs from its baseline may take to hold still. */
const STILL_TRIES = 5;

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
    await driver.setViewport(WIDEST[engine] + 32, 900);
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

  /** The widget with the page's margin around it (focus rings reach past its box), masked. */
  async function take(masks: readonly string[]): Promise<Buffer> {
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
    return compact(await driver.screenshot('main'), areas);
  }

  /**
   * A shot that differs from its baseline is taken again until two in a row are the same
   * (at most STILL_TRIES more), and that one is compared: a busy machine may shoot a page
   * before it has drawn all of a change (the bank's page in its frame, drawn apart from the
   * page that holds it, once its frame took a new size or scheme). A state that keeps changing
   * is compared as last shot. A shot that matches at once is never taken twice.
   */
  async function stillShot(
    name: string,
    masks: readonly string[],
    baseline: string,
  ): Promise<{ shot: Buffer; seen: Comparison | undefined }> {
    let shot = await take(masks);
    if (!existsSync(baseline)) return { shot, seen: undefined };
    const expected = readFileSync(baseline);
    let seen = compare(shot, expected);
    for (let tries = 0; seen.kind !== 'same' && tries < STILL_TRIES; tries++) {
      const again = await take(masks);
      if (again.equals(shot)) break;
      shot = again;
      seen = compare(shot, expected);
      if (seen.kind === 'same') console.log(`${name}: drawn still only after ${tries + 2} shots`);
    }
    return { shot, seen };
  }

  /** Shoots the widget, and compares the shot with its baseline (or writes the baseline). */
  async function shoot(name: string, masks: readonly string[]): Promise<string | undefined> {
    const baseline = join(baselines, `${name}.png`);
    const { shot, seen } = await stillShot(name, masks, baseline);
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

  /** What is wrong with a layout: boxes that meet, text out of its box, a page wider than its frame. */
  const problems = (layout: Layout, where = '') =>
    [
      ...crowded(layout.boxes),
      ...leaving(layout.texts),
      ...(layout.pageScrollsSideways ? ['the page scrolls sideways'] : []),
    ].map((problem) => `${where}${layout.width} px: ${problem}`);

  /**
   * The layout check at every width (read in this order, ending where the shots start), in the
   * widget and in any frame it shows; and at each wider width a state is not drawn at, its
   * layout held to the one it is drawn at below, stretched.
   */
  async function checkLayout(state: State): Promise<string[]> {
    const readAt: Width[] = [1280, 768, 320, 360];
    const layouts = await driver.run<Layout[]>(LAYOUT, readAt, 'widget');
    const found = layouts.flatMap((layout) => problems(layout));
    const drawn = [
      ...(state.widths ?? [360]),
      ...(state.extra ?? []).filter((extra) => !extra.look).map((extra) => extra.width),
    ];
    const at = (width: Width) => layouts[readAt.indexOf(width)] as Layout;
    for (const width of WIDTHS) {
      const below = drawn.filter((w) => w >= 360 && w < width).sort((a, b) => b - a)[0];
      if (drawn.includes(width) || below === undefined) continue;
      for (const difference of unlike(at(below), at(width))) {
        found.push(`not drawn at ${width} px, yet ${difference}: draw it there too (widths)`);
      }
    }
    if (layouts.some((layout) => layout.boxes.some((box) => box.name.startsWith('iframe')))) {
      for (const width of readAt) {
        await setWidth(driver, width);
        const [inside] = await driver.inFrame(() => driver.run<Layout[]>(LAYOUT, [], 'page'));
        if (inside) found.push(...problems({ ...inside, width }, 'in its frame at '));
      }
    }
    return found;
  }

  interface Shot extends Extra {
    scheme: ColorScheme;
  }

  /**
   * A state's shots, in the order they are taken: the scheme the page is in first (one change
   * of scheme per state, the slowest step in WebKit), the extras in light; forced colours only
   * where the engine has them.
   */
  function shotsOf(state: State): Shot[] {
    const schemes = state.schemes ?? ['light', 'dark'];
    const order = schemes.includes(scheme)
      ? [scheme, ...schemes.filter((s) => s !== scheme)]
      : schemes;
    const widths = state.widths ?? [360];
    return order.flatMap((next, round) => [
      ...(round === 0 ? widths : [...widths].reverse()).map((width) => ({ width, scheme: next })),
      ...(next === 'light' ? (state.extra ?? []) : [])
        .filter((extra) => extra.look !== 'forced' || driver.forcesColors)
        .filter((extra) => extra.width <= WIDEST[engine])
        .map((extra) => ({ ...extra, scheme: next })),
    ]);
  }

  const shotName = (state: State, { look, scheme, width }: Shot) =>
    `${state.name}-${look ? `${look}-` : ''}${scheme}-${width}`;

  /** Puts a look on the page (or takes it off). */
  async function wear(look: Look, on: boolean): Promise<void> {
    if (look === 'forced') return driver.setForcedColors(on);
    await driver.run(
      `document.documentElement.classList.toggle('themed', arguments[0]); ${DRAWN}`,
      on,
    );
  }

  async function shootAll(state: State, layout: string[], differences: string[]): Promise<void> {
    for (const shot of shotsOf(state)) {
      if (shot.scheme !== scheme) {
        await driver.setColorScheme(shot.scheme);
        scheme = shot.scheme;
      }
      await setWidth(driver, shot.width);
      const { look } = shot;
      const name = shotName(state, shot);
      if (look) await wear(look, true);
      try {
        // Forced colours change colours, not where anything is (and every box reads as painted).
        if (look === 'themed') {
          const [seen] = await driver.run<Layout[]>(LAYOUT, [], 'widget');
          if (seen) layout.push(...problems(seen, `${look}, `));
        }
        // A caret forced colours draw blinks (page.js): none is drawn while the shot is taken.
        if (look === 'forced') await driver.run('window.hideCaret();');
        const difference = await shoot(name, state.masks ?? []);
        if (difference) differences.push(difference);
      } finally {
        if (look === 'forced') await driver.run('window.showCaret();');
        if (look) await wear(look, false);
      }
      if (
        update &&
        engine === 'chromium' &&
        shot.width === 360 &&
        !look &&
        README_STATES.includes(state.name)
      ) {
        writeFileSync(readmeShot(state.name, scheme), readFileSync(join(baselines, `${name}.png`)));
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
          layout.push(...(await checkLayout(state)));
          await shootAll(state, layout, differences);
        } finally {
          await state.leave?.(scene);
        }
      });
      // In every state, at every width: no two boxes meet, no text leaves its box.
      assert.deepEqual(
        { layout, differences },
        { layout: [], differences: [] },
        'boxes that overlap or touch, text out of its box, and shots that differ from their baselines',
      );
    });
  }

  it('lists every state in test/visual/README.md, in order, with the count of states and shots', () => {
    const readme = readFileSync(join(root, 'test/visual/README.md'), 'utf8');
    const listed = [...readme.matchAll(/^\| `([^`]+)` \|/gm)].map((row) => row[1]);
    assert.deepEqual(
      listed,
      STATES.map((state) => state.name),
    );
    const count = (forced: boolean) =>
      STATES.reduce(
        (n, state) =>
          n +
          (state.widths ?? [360]).length * (state.schemes ?? ['light', 'dark']).length +
          (state.extra ?? []).filter(
            (extra) => (forced || extra.look !== 'forced') && (forced || extra.width < 1280),
          ).length,
        0,
      );
    const said = `${STATES.length} states, ${count(true)} shots in\nChromium and Firefox, ${count(false)} in WebKit`;
    assert.ok(readme.includes(said), `the README says: ${said}`);
  });

  it('keeps no baseline of a shot it no longer takes', () => {
    const taken = new Set(
      STATES.flatMap((state) => shotsOf(state).map((shot) => `${shotName(state, shot)}.png`)),
    );
    const left = readdirSync(baselines).filter((file) => !taken.has(file));
    // Writing the baselines removes them; comparing names them.
    if (update) for (const file of left) rmSync(join(baselines, file));
    else
      assert.deepEqual(
        left,
        [],
        'baselines of shots no state takes: npm run screenshots removes them',
      );
  });

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
