import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';

const iife = readFileSync(new URL('../../dist/payment-widget.iife.js', import.meta.url), 'utf8');

test('the script-tag build defines <payment-widget>', async ({ page }) => {
  await page.route('http://127.0.0.1:9/', (route) =>
    route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>t</title>' }),
  );
  await page.goto('http://127.0.0.1:9/');
  await page.addScriptTag({ content: iife });
  const defined = await page.evaluate(() => customElements.get('payment-widget') !== undefined);
  expect(defined).toBe(true);
});
