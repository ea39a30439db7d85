// The example shop's HTTP surface without a browser: what a page may learn, and
// how it answers bad input.
import { existsSync } from 'node:fs';
import { expect, test } from './fixtures.ts';

test('no page or asset the shop serves contains the provider key', async ({ shop }) => {
  for (const path of [
    '/',
    '/?redirect=0',
    '/?account=1',
    '/module.html',
    '/csp.html',
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

test('the strict-CSP page allows frames and form posts to the provider only', async ({ shop }) => {
  const response = await fetch(new URL('/csp.html', shop.url));
  const csp = response.headers.get('content-security-policy') ?? '';
  const sandboxOrigin = new URL(shop.sandbox.url).origin;
  expect(csp).toContain("default-src 'self'");
  expect(csp).toContain(`frame-src ${sandboxOrigin}`);
  expect(csp).toContain(`form-action 'self' ${sandboxOrigin}`);
  expect(csp).not.toMatch(/unsafe-(inline|eval)/);
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
