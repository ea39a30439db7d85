// The example shop's HTTP surface without a browser: what a page may learn, and
// how it answers bad input.
import { existsSync } from 'node:fs';
import { pageSecurityHeaders, widgetTags } from '../../src/server/index.ts';
import { expect, test } from './fixtures.ts';

test('no page or asset the shop serves contains the provider key', async ({ shop }) => {
  for (const path of [
    '/',
    '/?redirect=0',
    '/?account=1',
    '/module.html',
    '/result?checkout_id=abc',
    '/assets/payment-widget.iife.js',
    '/assets/payment-widget.js',
    '/assets/locales/de-DE.js',
    '/demo/events.js',
  ]) {
    const response = await fetch(new URL(path, shop.url));
    expect(response.status, path).toBe(200);
    expect(await response.text(), path).not.toContain(shop.sandbox.apiKey);
  }
});

test('bad demo knobs and result ids are a 400 naming the field', async ({ shop }) => {
  for (const [path, field] of [
    ['/?amount=-1', 'amount'],
    ['/?amount=1e9', 'amount'],
    ['/?currency=XYZ', 'currency'],
    ['/?expires_in=0', 'expires_in'],
    ['/?locale=%22%3E%3Cscript%3E', 'locale'],
    ['/?locale=de/../../x', 'locale'],
    ['/result', 'checkout_id'],
    ['/result?checkout_id=%3Cscript%3E', 'checkout_id'],
  ] as const) {
    const response = await fetch(new URL(path, shop.url));
    expect(response.status, path).toBe(400);
    expect(await response.json(), path).toMatchObject({ error: { field } });
  }
});

test('files outside the served folders are not reachable', async ({ shop }) => {
  for (const path of [
    '/demo/../package.json',
    '/demo/%2e%2e/package.json',
    '/examples/react/..%2f..%2fpackage.json',
    '/assets/../package.json',
    '/assets/locales/..%2fpayment-widget.js',
    '/assets/locales/de-DE.ts',
    '/assets/locales/xx-XX.js',
    '/server-example/server.ts',
  ]) {
    const response = await fetch(new URL(path, shop.url));
    expect(response.status, path).toBe(404);
  }
});

test('every payment page is sent as docs/pci.md builds it: widgetTags() and pageSecurityHeaders(), a new nonce each time', async ({
  shop,
}) => {
  const sandboxOrigin = new URL(shop.sandbox.url).origin;
  const nonces = new Set<string>();
  for (const [path, module] of [
    ['/', false],
    ['/?redirect=0', false],
    ['/module.html', true],
    ['/result?checkout_id=abc', false],
  ] as const) {
    const response = await fetch(new URL(path, shop.url));
    const csp = response.headers.get('content-security-policy') ?? '';
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1] ?? '';
    expect(nonce, path).not.toBe('');
    nonces.add(nonce);
    const tags = widgetTags({ assetsUrl: 'assets/', nonce, module });
    // Loopback over http: reports go to the handler's full URL (report-uri alone).
    const expected = pageSecurityHeaders({
      nonce,
      reportPath: new URL('/payments/reports', shop.url).href,
      extra: { ...tags.csp, 'frame-src': [sandboxOrigin], 'form-action': [sandboxOrigin] },
    });
    expect(csp, path).toBe(expected['Content-Security-Policy']);
    const page = await response.text();
    expect(page, path).toContain(tags.html);
    // Every script of the page's own carries the nonce too.
    for (const [tag] of page.matchAll(/<script\b[^>]*>/g)) expect(tag, path).toContain(nonce);
  }
  expect(nonces.size).toBe(4);
});

test('the built React and Vue pages revalidate; their content-hashed scripts are immutable', async ({
  shop,
}) => {
  for (const framework of ['react', 'vue']) {
    const built = new URL(`../../examples/dist/${framework}/index.html`, import.meta.url);
    expect(
      existsSync(built),
      'build the examples first: npm --prefix examples ci && npm --prefix examples run build',
    ).toBe(true);
    const page = await fetch(new URL(`/examples/${framework}/`, shop.url));
    expect(page.headers.get('cache-control')).toBe('no-cache');
    const scripts = [...(await page.text()).matchAll(/<script[^>]* src="([^"]+)"/g)].map(
      (m) => m[1] ?? '',
    );
    expect(scripts.length, framework).toBeGreaterThan(0);
    for (const src of scripts) {
      const response = await fetch(new URL(src, shop.url));
      expect(response.status, src).toBe(200);
      expect(response.headers.get('cache-control'), src).toBe(
        'public, max-age=31536000, immutable',
      );
    }
  }
});
