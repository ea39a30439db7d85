/**
 * The element in a page Lit's own server renderer wrote (@lit-labs/ssr, as Eleventy's Lit
 * plugin runs it), hydrated in the browser with @lit-labs/ssr-client's hydrate support: the
 * server draws the form the element shows while it loads, in a declarative shadow root, and
 * asks the handler nothing; the browser takes that form over (the same nodes, one form, no
 * hydration mismatch), loads the checkout and pays.
 */
import { render } from '@lit-labs/ssr';
import { collectResult } from '@lit-labs/ssr/lib/render-result.js';
import { build } from 'esbuild';
import { html } from 'lit';
import { CARDS, expect, fillCard, pay, test, watchProblems } from './fixtures.ts';
import '../../src/index.ts';

let client = '';

test.beforeAll(async () => {
  const bundled = await build({
    entryPoints: [new URL('./lit-ssr/client.ts', import.meta.url).pathname],
    bundle: true,
    format: 'esm',
    write: false,
    logLevel: 'silent',
  });
  client = bundled.outputFiles[0]?.text ?? '';
});

for (const methods of ['card ideal bancontact', 'ideal']) {
  test(`payment-methods="${methods}" rendered by Lit SSR hydrates with no mismatch, then pays`, async ({
    page,
    shop,
  }) => {
    const requested: string[] = [];
    const fetched = globalThis.fetch;
    globalThis.fetch = (input, init) => {
      requested.push(String(input instanceof Request ? input.url : input));
      return fetched(input, init);
    };
    let rendered = '';
    try {
      const endpoint = new URL('/payments', shop.url).href;
      const widget = html`<payment-widget order='{"sku":"mug"}' endpoint=${endpoint} payment-methods=${methods}></payment-widget>`;
      rendered = await collectResult(render(widget));
    } finally {
      globalThis.fetch = fetched;
    }
    // The form it shows while loading, and not a call to the handler from the server.
    expect(rendered).toContain('<template shadowroot="open" shadowrootmode="open">');
    expect(requested).toEqual([]);

    const problems = await watchProblems(page);
    const calls: string[] = [];
    page.on('request', (request) => {
      const { pathname } = new URL(request.url());
      if (pathname.startsWith('/payments/')) calls.push(`${request.method()} ${pathname}`);
    });
    await page.route(new URL('/ssr/lit', shop.url).href, (route) =>
      route.fulfill({
        contentType: 'text/html',
        body: `<!doctype html><html lang="en"><title>Shop</title><body>${rendered}<script type="module" src="/assets/lit-ssr-client.js"></script></body></html>`,
      }),
    );
    // The widget's script waits until the server's form is marked: hydration keeps that node.
    let release: () => void = () => {};
    const marked = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(new URL('/assets/lit-ssr-client.js', shop.url).href, async (route) => {
      await marked;
      await route.fulfill({ contentType: 'text/javascript', body: client });
    });
    await page.goto(new URL('/ssr/lit', shop.url).href, { waitUntil: 'commit' });
    const form = page.locator('payment-widget form');
    await form.evaluate((node) => {
      (node as HTMLFormElement & { fromServer?: boolean }).fromServer = true;
    });
    release();
    if (methods === 'ideal') {
      // The bank's form, as the server drew it (a card's there would not match).
      await expect(page.getByLabel('First name')).toBeVisible();
      await expect(page.getByRole('button', { name: 'Pay €12.50' })).toBeEnabled();
    } else {
      await expect(page.getByRole('button', { name: 'Pay €12.50' })).toBeEnabled();
      await page.getByRole('radio', { name: 'Card' }).check();
      await fillCard(page, CARDS.paid);
      await pay(page);
      await expect(page.getByText('Payment successful')).toBeVisible();
    }
    expect(await form.evaluate((node) => 'fromServer' in node)).toBe(true);
    await expect(form).toHaveCount(1);
    expect(calls.filter((call) => call === 'POST /payments/checkouts')).toHaveLength(1);
    expect(problems).toEqual([]);
  });
}
