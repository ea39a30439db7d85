// Loading the widget must not move the page: its first paint reserves the
// form's final size, so what a shop puts under the widget (its order summary,
// its terms) stays where the shopper first saw it. Measured with Chromium's
// Layout Instability API, as Web Vitals' cumulative layout shift counts it:
// every shift not caused by the shopper's own input, from the first byte
// until the widget is ready. And the widget itself keeps one height from the
// first frame it is drawn in, which also holds where nothing sits below it.
//
// The backend and the widget's script are slowed a little: on a loopback
// connection they can answer before the first paint, which would hide the
// placeholder (and anything wrong with it) from the measurement.
import { existsSync, readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { CARDS, expect, fillCard, openShop, pay, type Shop, test } from './fixtures.ts';

const PAGES = [
  '/',
  '/?redirect=0',
  '/module.html',
  '/?locale=de-DE',
  '/?currency=BRL',
  '/?account=1',
  '/examples/react/',
  '/examples/vue/',
] as const;

// A phone and a desktop: the widget's own layout is the same from 768 px up (one column,
// its maximum width), so the tablet width measured nothing the desktop one does not; the
// README rule's test below also loads at 390 px, the width of a common phone.
const WIDTHS = [360, 1280] as const;

/** Web Vitals calls up to 0.1 good; a page that only loads a widget should stay near 0. */
const MAX_SHIFT = 0.01;

/** How long each /payments call and the widget's own script are held back. */
const DELAY_MS = 300;

interface Shift {
  value: number;
  /** What moved, with its box before and after (elements in a shadow root are not named). */
  moved: string[];
}

interface Frame {
  /** The widget's height in this frame. */
  height: number;
  /** Whether it said it was busy loading (its placeholder on screen). */
  busy: boolean;
}

interface Measured {
  shifts: Shift[];
  /** One entry per frame drawn with the widget in the page, until it was ready. */
  frames: Frame[];
}

declare global {
  interface Window {
    /** Set by the init script below: what the page has measured so far. */
    measured?: () => Measured;
    /** Set by the init script below once payment-ready has fired. */
    widgetReady?: Promise<void>;
  }
}

/**
 * Counts every layout shift from the first byte on, as the page's own script
 * would, and looks at the widget in every frame until it is ready.
 */
function observe(): void {
  interface LayoutShift extends PerformanceEntry {
    value: number;
    hadRecentInput: boolean;
    sources: { node: Node | null; previousRect: DOMRectReadOnly; currentRect: DOMRectReadOnly }[];
  }
  const shifts: Shift[] = [];
  const frames: Frame[] = [];
  const name = (node: Node | null) => {
    if (!(node instanceof Element)) return '(in a shadow root)';
    const cls = node.classList.length > 0 ? `.${[...node.classList].join('.')}` : '';
    return `${node.localName}${node.id ? `#${node.id}` : ''}${cls}`;
  };
  const box = (r: DOMRectReadOnly) =>
    `x ${Math.round(r.x)} y ${Math.round(r.y)} w ${Math.round(r.width)} h ${Math.round(r.height)}`;
  const record = (list: PerformanceEntry[]) => {
    for (const entry of list as LayoutShift[]) {
      if (entry.hadRecentInput) continue;
      shifts.push({
        value: entry.value,
        moved: entry.sources.map(
          (s) => `${name(s.node)} ${box(s.previousRect)} -> ${box(s.currentRect)}`,
        ),
      });
    }
  };
  const observer = new PerformanceObserver((list) => record(list.getEntries()));
  observer.observe({ type: 'layout-shift', buffered: true });
  let ready = false;
  window.widgetReady = new Promise((resolve) =>
    document.addEventListener('payment-ready', () => {
      ready = true;
      resolve();
    }),
  );
  const sample = () => {
    const widget = document.querySelector('payment-widget');
    if (widget) {
      frames.push({
        height: widget.getBoundingClientRect().height,
        busy: widget.shadowRoot?.querySelector('[part~=loading]') != null,
      });
    }
    if (!ready) requestAnimationFrame(sample);
  };
  requestAnimationFrame(sample);
  window.measured = () => {
    record(observer.takeRecords());
    return { shifts, frames };
  };
}

/** Holds back the backend's answers and the widget's script by DELAY_MS each. */
async function slowDown(page: Page): Promise<void> {
  const later = () => new Promise((resolve) => setTimeout(resolve, DELAY_MS));
  await page.route(/\/payments\//, async (route) => {
    await later();
    await route.continue();
  });
  await page.route(/\/assets\/payment-widget|\/examples\/\w+\/assets\//, async (route) => {
    await later();
    await route.continue();
  });
}

/** Loads `path` at `width` px and measures until two frames after the widget is ready. */
async function measureLoad(shop: Shop, page: Page, path: string): Promise<Measured> {
  await page.addInitScript(observe);
  await slowDown(page);
  await page.goto(new URL(path, shop.url).href);
  await page.evaluate(() => window.widgetReady);
  await expect(page.locator('payment-widget button[type=submit]')).toBeEnabled();
  // A shift is reported once the frame showing it is drawn: two frames after
  // the ready form, every shift the load caused has been.
  return page.evaluate(
    () =>
      new Promise<Measured>((resolve) =>
        requestAnimationFrame(() =>
          requestAnimationFrame(() => resolve(window.measured?.() ?? { shifts: [], frames: [] })),
        ),
      ),
  );
}

/** The checks, and one line for the record (`npx playwright test layout-shift` prints them). */
async function expectStill(shop: Shop, page: Page, path: string, label: string): Promise<void> {
  const { shifts, frames } = await measureLoad(shop, page, path);
  const total = shifts.reduce((sum, s) => sum + s.value, 0);
  const moved = shifts.map((s) => `${s.value.toFixed(4)}: ${s.moved.join(', ')}`).join('; ');
  const heights = [...new Set(frames.map((f) => Math.round(f.height)))];
  console.log(
    `CLS ${label}: ${total.toFixed(4)} (widget heights ${heights.join(', ')})${moved ? `: ${moved}` : ''}`,
  );
  // The slow backend did its job: frames were drawn with the placeholder.
  expect(
    frames.some((f) => f.busy),
    `${label}: no frame showed the loading widget`,
  ).toBe(true);
  expect(total, `${label}: ${moved}`).toBeLessThan(MAX_SHIFT);
  const last = frames.at(-1)?.height ?? 0;
  expect(last).toBeGreaterThan(100);
  for (const frame of frames) {
    expect(Math.abs(frame.height - last), `${label}: heights ${heights.join(', ')}`).toBeLessThan(
      1,
    );
  }
}

test.describe('loading the widget does not move the page', () => {
  test.beforeAll(() => {
    const built = new URL('../../examples/dist/react/index.html', import.meta.url);
    expect(
      existsSync(built),
      'build the examples first: npm --prefix examples ci && npm --prefix examples run build',
    ).toBe(true);
  });

  for (const path of PAGES) {
    for (const width of WIDTHS) {
      test(`${path} at ${width} px`, async ({ browser, shop }) => {
        const context = await browser.newContext({ viewport: { width, height: 800 } });
        try {
          await expectStill(shop, await context.newPage(), path, `${path} @${width}px`);
        } finally {
          await context.close();
        }
      });
    }
  }
});

// A returning shopper's saved card needs less room than the card fields the
// placeholder expected: the widget keeps the room (its button stays put) rather
// than pull the page up.
test.describe('loading a saved card does not move the page', () => {
  test.beforeAll(async ({ browser, shop }) => {
    const page = await browser.newPage();
    await openShop(page, shop, '/?account=1&redirect=0');
    // The shop's one demo shopper may have saved the card already (another test did).
    if ((await page.getByRole('radio', { name: /ending in 0091/ }).count()) === 0) {
      await fillCard(page, CARDS.paid);
      await page.getByLabel('Save this card for future payments').check();
      await pay(page);
      await expect(page.getByText('Payment successful')).toBeVisible();
    }
    await page.close();
  });

  for (const width of WIDTHS) {
    test(`/?account=1 with a saved card at ${width} px`, async ({ browser, shop }) => {
      const context = await browser.newContext({ viewport: { width, height: 800 } });
      try {
        const page = await context.newPage();
        await expectStill(shop, page, '/?account=1', `/?account=1 saved card @${width}px`);
        await expect(page.getByRole('radio', { name: /ending in 0091/ })).toBeChecked();
      } finally {
        await context.close();
      }
    });
  }
});

// The README's rule alone, on a page of the shop's origin that holds nothing
// else: a card form, with a paragraph under it that must stay put.
for (const methods of ['card', 'card ideal bancontact']) {
  test(`the README rule reserves the room before the script runs: ${methods}`, async ({
    browser,
    shop,
  }) => {
    const rule = readFileSync(
      new URL('../../docs/README-snippets/reserve-height.css', import.meta.url),
      'utf8',
    );
    for (const width of [...new Set([...WIDTHS, 390])].sort((a, b) => a - b)) {
      const context = await browser.newContext({ viewport: { width, height: 800 } });
      try {
        const page = await context.newPage();
        await page.route(new URL('/readme-rule.html', shop.url).href, (route) =>
          route.fulfill({
            contentType: 'text/html',
            body: `<!doctype html><html lang="en"><title>Shop</title><style>${rule}</style>
            <h1>Checkout</h1>
            <payment-widget order='{"sku":"poster"}' payment-methods="${methods}"></payment-widget>
            <p>Terms, then the order summary: nothing here may move.</p>
            <script src="/assets/payment-widget.iife.js"></script></html>`,
          }),
        );
        await expectStill(shop, page, '/readme-rule.html', `README rule (${methods}) @${width}px`);
      } finally {
        await context.close();
      }
    }
  });
}
