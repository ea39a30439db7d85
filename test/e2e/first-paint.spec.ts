// What a shopper's browser downloads before the card form paints, counted from the network:
// the gzip size of every script the page received before the form was on screen. The card
// form needs at most 14 KiB (one round trip on a new connection); what typing and paying
// need loads after its first paint, and typing is never held up by it: the first keystroke
// goes in as typed, and is formatted when the rest arrives. A page with every option on
// loads at most 24 KiB in all, through a whole payment that the provider settles at once (a
// next step, a 3DS challenge say, comes in a part of its own, only when an answer calls for
// one: the budget tests hold it to 3,648 B).
import { gzipSync } from 'node:zlib';
import type { Page, Request } from '@playwright/test';
import { CARDS, expect, fillCard, type Shop, test } from './fixtures.ts';

const FIRST_PAINT_BUDGET = 14 * 1024;
const ALL_BUDGET = 24 * 1024;

/** A page of the shop's origin that holds the widget and its script tag, nothing else. */
async function servePage(page: Page, shop: Shop, widget: string): Promise<string> {
  const url = new URL('/first-paint.html', shop.url).href;
  await page.route(url, (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: `<!doctype html><html lang="en"><title>Shop</title>
        <h1>Checkout</h1>
        ${widget}
        <script src="/assets/payment-widget.iife.js"></script></html>`,
    }),
  );
  return url;
}

interface Counted {
  url: string;
  /** The response's body as it came over the network: brotli or gzip (a file under 1 KiB as it is). */
  gzip: number;
  encoding: string | null;
  /** Its body gzipped here (level 9, as the budget tests count): what it weighs as gzip whatever came. */
  gzipped: number;
  /** When its last byte arrived, on the page's clock (ms since navigation). */
  responseEnd: number;
}

/**
 * Every script the page receives, with its size on the wire, its body gzipped here and when
 * it arrived. Held scripts (`hold`) wait until their promise settles. Each is asked for
 * gzip, but Chromium sends its own Accept-Encoding: once the server has a file's brotli
 * ready (made in the background after its first request), it sends that, smaller still.
 * So the budget counts each body gzipped at level 9, as the budget tests count the files.
 */
function countScripts(page: Page, hold?: (request: Request) => Promise<void> | undefined) {
  const scripts: Counted[] = [];
  const pending: Promise<void>[] = [];
  page.on('requestfinished', (request) => {
    if (request.resourceType() !== 'script') return;
    pending.push(
      (async () => {
        const [sizes, response] = await Promise.all([request.sizes(), request.response()]);
        const encoding = (await response?.headerValue('content-encoding')) ?? null;
        const { responseEnd } = request.timing();
        const gzipped = gzipSync((await response?.body()) ?? Buffer.alloc(0), { level: 9 }).length;
        scripts.push({
          url: request.url(),
          gzip: sizes.responseBodySize,
          encoding,
          gzipped,
          responseEnd,
        });
      })(),
    );
  });
  return {
    async install(): Promise<void> {
      await page.route(/\.js(\?|$)/, async (route) => {
        await hold?.(route.request());
        await route.continue({
          headers: { ...route.request().headers(), 'accept-encoding': 'gzip' },
        });
      });
    },
    async all(): Promise<Counted[]> {
      await Promise.all(pending);
      return scripts;
    },
  };
}

/**
 * Resolves, in the page, with the time (page clock) of the first frame that shows the card
 * form ready to type in: the real form, not the placeholder drawn while the checkout loads.
 * The placeholder is the same template, inert and hidden from assistive technology, the host
 * busy through its ElementInternals (which a page cannot read): so the form counts once it is
 * no longer inert and the "Loading…" line is gone.
 */
function formPainted(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        const look = () => {
          const root = document.querySelector('payment-widget')?.shadowRoot;
          const form = root?.querySelector('form');
          const input = form?.querySelector<HTMLInputElement>('#number');
          const shown =
            form &&
            !form.inert &&
            form.getAttribute('aria-hidden') !== 'true' &&
            !root?.querySelector('[part~="loading"]') &&
            input?.getClientRects().length;
          // The frame that draws it: the next rAF callback runs after it was painted.
          if (shown) requestAnimationFrame(() => resolve(performance.now()));
          else requestAnimationFrame(look);
        };
        look();
      }),
  );
}

const sum = (list: Counted[]) => list.reduce((total, script) => total + script.gzipped, 0);
const names = (list: Counted[]) =>
  list
    .map((s) => `${new URL(s.url).pathname} ${s.gzipped} B (${s.gzip} B ${s.encoding})`)
    .join(', ');

test('the card form paints from at most 14 KiB of script; typing and paying load after, and typing never waits', async ({
  page,
  shop,
}) => {
  // The pay part is held until the form has painted and the shopper has typed: the form
  // must not need it, and typing must not wait for it.
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const counter = countScripts(page, (request) =>
    request.url().includes('/parts/') ? released : undefined,
  );
  await counter.install();
  const url = await servePage(
    page,
    shop,
    `<payment-widget order='{"sku":"poster"}'></payment-widget>`,
  );
  // Not until `load`: the page's load event waits for the held part's <script> (the widget asks
  // for it as it loads its checkout), which comes only once the shopper has typed.
  await page.goto(url, { waitUntil: 'domcontentloaded' });
  const painted = await formPainted(page);
  const before = (await counter.all()).filter((s) => s.responseEnd <= painted);
  console.log(
    `scripts before the card form's first paint: ${sum(before)} B gzip (${names(before)})`,
  );
  expect(before.map((s) => new URL(s.url).pathname)).toEqual(['/assets/payment-widget.iife.js']);
  // Compressed on the wire (brotli once the server has it ready, else gzip).
  for (const script of before) expect(['gzip', 'br']).toContain(script.encoding);
  expect(sum(before)).toBeLessThanOrEqual(FIRST_PAINT_BUDGET);

  // The first keystrokes go in as typed while the rest is on its way...
  const number = page.getByLabel('Card number');
  await number.pressSequentially('4242424242424242');
  await expect(number).toHaveValue('4242424242424242');
  // ...and are formatted, with the card's mark, once it has come.
  release();
  await expect(number).toHaveValue('4242 4242 4242 4242');
  await expect(page.locator('payment-widget svg.icon text')).toHaveText('VISA');
  const parts = (await counter.all()).filter((s) => s.url.includes('/parts/'));
  expect(parts.map((s) => new URL(s.url).pathname)).toContain('/assets/parts/pay.js');
});

test('a page with every option on loads at most 24 KiB of script in all, through a payment', async ({
  page,
  shop,
  quiet,
}) => {
  // No shopper is signed in as cus_nobody: the handler refuses their saved cards, which the
  // browser reports, and the widget offers a new card alone.
  quiet.allow(
    /^error: Failed to load resource: .* 403 .*\/customers\/cus_nobody\/payment-instruments/,
  );
  const counter = countScripts(page);
  await counter.install();
  const url = await servePage(
    page,
    shop,
    // Every option a euro shop may set (the ZIP code is the USA's, installments Brazil's:
    // their fields are in the bundle, and a euro checkout refuses them).
    `<payment-widget order='{"sku":"poster"}' payment-methods="card ideal bancontact"
      show-email save-card donate customer-id="cus_nobody"></payment-widget>`,
  );
  await page.goto(url);
  await expect(page.getByRole('button', { name: /^Donate / })).toBeEnabled();
  await fillCard(page, CARDS.paid);
  await page.getByLabel('Email').fill('ada@example.com');
  await page.getByRole('button', { name: /^Donate / }).click();
  await expect(page.getByText('Payment successful')).toBeVisible();
  // The widget's scripts, every part it loaded included.
  const all = (await counter.all()).filter((s) => new URL(s.url).pathname.startsWith('/assets/'));
  console.log(`scripts with every option on, in all: ${sum(all)} B gzip (${names(all)})`);
  const paths = all.map((s) => new URL(s.url).pathname);
  expect(paths).toContain('/assets/parts/pay.js');
  // No next step was called for: its part never came.
  expect(paths).not.toContain('/assets/parts/step.js');
  expect(sum(all)).toBeLessThanOrEqual(ALL_BUDGET);
});
