/**
 * The element in a Vue page rendered by the server and hydrated in the browser, as Nuxt
 * serves it: does Vue hand the element its `order` and listeners on hydration (React does
 * not, hence payment-widget/react)? Vue's server renderer leaves the object `order` out of
 * the HTML, the element upgrades before hydration and waits for it, and Vue's development
 * build reports any hydration mismatch in the console.
 */
import { build } from 'esbuild';
import { renderToString } from 'vue/server-renderer';
import { CARDS, expect, fillCard, pay, test, watchProblems } from './fixtures.ts';
import { createApp } from './vue-ssr/app.ts';

let client = '';

test.beforeAll(async () => {
  const bundled = await build({
    entryPoints: [new URL('./vue-ssr/client.ts', import.meta.url).pathname],
    bundle: true,
    format: 'esm',
    write: false,
    // Vue's full build (its template compiler too), in development.
    alias: { vue: 'vue/dist/vue.esm-bundler.js' },
    define: {
      'process.env.NODE_ENV': '"development"',
      __VUE_OPTIONS_API__: 'true',
      __VUE_PROD_DEVTOOLS__: 'false',
      __VUE_PROD_HYDRATION_MISMATCH_DETAILS__: 'true',
    },
    logLevel: 'silent',
  });
  client = bundled.outputFiles[0]?.text ?? '';
});

test('a Vue page rendered by the server and hydrated pays, with no hydration warning', async ({
  page,
  shop,
}) => {
  const problems = await watchProblems(page);
  const calls: string[] = [];
  page.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if (pathname === '/payments/checkouts') calls.push(request.method());
  });
  const html = await renderToString(createApp());
  // The object order is not in the HTML: the element gets it from hydration.
  expect(html).toContain(
    '<payment-widget endpoint="/payments" payment-methods="card ideal bancontact">',
  );
  await page.route(new URL('/ssr/vue', shop.url).href, (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: `<!doctype html><html lang="en"><title>Shop</title><body><div id="app">${html}</div><script type="module" src="/assets/vue-ssr-client.js"></script></body></html>`,
    }),
  );
  await page.route(new URL('/assets/vue-ssr-client.js', shop.url).href, (route) =>
    route.fulfill({ contentType: 'text/javascript', body: client }),
  );
  await page.goto(new URL('/ssr/vue', shop.url).href);
  const status = page.locator('#app > p[role=status]');
  // The listener hydration added heard payment-ready.
  await expect(status).toHaveText('ready');
  await page.getByRole('radio', { name: 'Card' }).check();
  await fillCard(page, CARDS.paid);
  await pay(page);
  await expect(page.getByText('Payment successful')).toBeVisible();
  await expect(status).toHaveText(/^Paid: [\w-]+$/);
  expect(calls).toEqual(['POST']);
  expect(problems).toEqual([]);
});
