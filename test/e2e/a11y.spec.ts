// The built widget in the demo shop: axe with each colour scheme emulated, no
// motion under prefers-reduced-motion, and the lazy locale files of the build
// (dist/locales/{tag}.js) loaded beside the IIFE and the ES module.
import { readFileSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { CARDS, challengeFrame, expect, openShop, pay, test } from './fixtures.ts';

const DIST_LOCALES = new URL('../../dist/locales/', import.meta.url);

/**
 * Serves `/assets/locales/{tag}.js` from the build, as a merchant's server or CDN
 * serves the whole dist folder (the demo's own server serves only the two bundles).
 */
async function serveBuiltLocales(page: Page): Promise<string[]> {
  const asked: string[] = [];
  await page.route(/\/assets\/locales\/[\w-]+\.js$/, async (route) => {
    const name = new URL(route.request().url()).pathname.split('/').pop() ?? '';
    asked.push(name);
    try {
      const body = readFileSync(new URL(name, DIST_LOCALES));
      await route.fulfill({ body, contentType: 'text/javascript; charset=utf-8' });
    } catch {
      await route.fulfill({ status: 404, body: 'not built' });
    }
  });
  return asked;
}

async function violations(page: Page, rules?: string[]): Promise<string[]> {
  let builder = new AxeBuilder({ page }).include('payment-widget');
  if (rules) builder = builder.withRules(rules);
  const results = await builder.analyze();
  return results.violations.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')}`));
}

for (const colorScheme of ['light', 'dark'] as const) {
  test(`the widget passes axe, contrast included, in the ${colorScheme} scheme`, async ({
    page,
    shop,
  }) => {
    await page.emulateMedia({ colorScheme });
    await openShop(page, shop, '/');
    // The shop page's own background follows the scheme, as any dark-capable page does.
    await page.addStyleTag({ content: ':root { background: Canvas; color: CanvasText; }' });
    expect(await violations(page)).toEqual([]);
    await pay(page);
    await expect(page.getByText('Check the highlighted fields')).toBeVisible();
    expect(await violations(page)).toEqual([]);
    expect(await violations(page, ['color-contrast'])).toEqual([]);
  });
}

test('under prefers-reduced-motion nothing in the widget moves', async ({ page, shop }) => {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await openShop(page, shop, '/');
  await page.addStyleTag({
    content: 'payment-widget::part(button) { transition: opacity 500ms; }',
  });
  const moving = await page.locator('payment-widget').evaluate(
    (host) =>
      [...(host.shadowRoot?.querySelectorAll('*') ?? [])].filter((node) => {
        const style = getComputedStyle(node);
        return style.transitionDuration !== '0s' || style.animationName !== 'none';
      }).length,
  );
  expect(moving).toBe(0);
});

test('the script-tag build loads its German strings from locales/de-DE.js beside it', async ({
  page,
  shop,
}) => {
  const asked = await serveBuiltLocales(page);
  await openShop(page, shop, '/');
  await page.locator('payment-widget').evaluate((el) => el.setAttribute('locale', 'de-DE'));
  await expect(page.getByLabel('Kartennummer')).toBeVisible();
  await expect(page.getByRole('button', { name: '10,00 € bezahlen' })).toBeVisible();
  expect(asked).toEqual(['de-DE.js']);
  expect(await violations(page)).toEqual([]);
});

test('the ES module build loads pt-BR, and a strict CSP page loads de-CH', async ({
  page,
  shop,
}) => {
  const asked = await serveBuiltLocales(page);
  await openShop(page, shop, '/module.html?redirect=0');
  await page.locator('payment-widget').evaluate((el) => el.setAttribute('locale', 'pt-BR'));
  await expect(page.getByLabel('Nome impresso no cartão')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Pagar € 10,00' })).toBeVisible();

  const blocked: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) blocked.push(message.text());
  });
  await openShop(page, shop, '/csp.html?redirect=0');
  await page.locator('payment-widget').evaluate((el) => el.setAttribute('locale', 'de-CH'));
  await expect(page.getByLabel('Kartennummer')).toBeVisible();
  // Swiss German formats francs and euros its own way; Intl decides, not us.
  const label = await page.locator('payment-widget button[part~="button"]').textContent();
  expect(label?.trim()).toContain('bezahlen');
  expect(asked).toEqual(['pt-BR.js', 'de-CH.js']);
  expect(blocked).toEqual([]);
});

test('the 3DS iframe is named for screen readers and passes axe in de-DE', async ({
  page,
  shop,
}) => {
  await serveBuiltLocales(page);
  await openShop(page, shop, '/?redirect=0');
  await page.locator('payment-widget').evaluate((el) => el.setAttribute('locale', 'de-DE'));
  await expect(page.getByLabel('Kartennummer')).toBeVisible();
  await page.getByLabel('Kartennummer').fill(CARDS.challenge);
  await page.getByLabel('Ablaufdatum').fill('12/34');
  await page.getByLabel('Sicherheitscode').fill('123');
  await page.getByLabel('Name auf der Karte').fill('Ada Lovelace');
  await page.getByRole('button', { name: /bezahlen$/ }).click();
  await challengeFrame(page);
  await expect(page.locator('payment-widget iframe')).toHaveAttribute(
    'title',
    'Bestätigen Sie die Zahlung bei Ihrer Bank',
  );
  expect(await violations(page)).toEqual([]);
});
