// The built widget in the demo shop: axe in the dark scheme (the light one is the engines' flows'), no
// motion under prefers-reduced-motion, and the lazy locale files of the build
// (dist/locales/{tag}.js) loaded beside the IIFE and the ES module.
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { CARDS, challengeFrame, expect, openShop, pay, test } from './fixtures.ts';

/** The locale files the page loads from the demo server, as `de-DE.js 200`. */
function localeFiles(page: Page): string[] {
  const loaded: string[] = [];
  page.on('response', (response) => {
    const { pathname } = new URL(response.url());
    if (pathname.startsWith('/assets/locales/')) {
      loaded.push(`${pathname.split('/').pop()} ${response.status()}`);
    }
  });
  return loaded;
}

async function violations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).include('payment-widget').analyze();
  return results.violations.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')}`));
}

/**
 * Whether the accessibility tree marks the widget busy: the host says it through
 * ElementInternals, which no attribute shows, so Chromium's own tree is asked.
 */
async function widgetBusy(page: Page): Promise<boolean> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { root } = await cdp.send('DOM.getDocument', { depth: 0 });
    const { nodeId } = await cdp.send('DOM.querySelector', {
      nodeId: root.nodeId,
      selector: 'payment-widget',
    });
    const { nodes } = await cdp.send('Accessibility.getPartialAXTree', {
      nodeId,
      fetchRelatives: false,
    });
    const busy = nodes[0]?.properties?.find((p) => p.name === 'busy');
    // Chromium says 1 for true.
    return Boolean(busy?.value.value);
  } finally {
    await cdp.detach();
  }
}

// The light scheme's form and errors are test/engines/flows.test.ts's axe run, in three engines;
// axe's default rules include color-contrast.
test('the widget passes axe, contrast included, in the dark scheme', async ({ page, shop }) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  await openShop(page, shop, '/');
  expect(await violations(page)).toEqual([]);
  await pay(page);
  await expect(page.getByText('Check the highlighted fields')).toBeVisible();
  expect(await violations(page)).toEqual([]);
});

test('under prefers-reduced-motion nothing in the widget moves', async ({ page, shop }) => {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await openShop(page, shop, '/');
  // A rule of the page's own, under its policy: a <style> with the page's nonce.
  await page.evaluate(() => {
    const style = document.createElement('style');
    style.nonce = document.querySelector('script')?.nonce ?? '';
    style.textContent = 'payment-widget::part(button) { transition: opacity 500ms; }';
    document.head.append(style);
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

// Austria's German words nothing differently from Germany's: one file holds both, its amounts
// are Austria's.
test('the script-tag build loads its Austrian German strings from locales/de-DE.js beside it', async ({
  page,
  shop,
}) => {
  const asked = localeFiles(page);
  await openShop(page, shop, '/');
  await page.locator('payment-widget').evaluate((el) => el.setAttribute('locale', 'de-AT'));
  await expect(page.getByLabel('Kartennummer')).toBeVisible();
  await expect(page.getByRole('button', { name: '€ 10,00 bezahlen' })).toBeVisible();
  expect(asked).toEqual(['de-DE.js 200']);
  expect(await violations(page)).toEqual([]);
});

// Colombia's Spanish words everything as Chile's (src/widget/locales/es.ts): one file holds
// both, and the widget still speaks and writes amounts as Colombia's.
test('the script-tag build loads its Colombian Spanish strings from locales/es-CL.js beside it', async ({
  page,
  shop,
}) => {
  const asked = localeFiles(page);
  await openShop(page, shop, '/');
  const widget = page.locator('payment-widget');
  await widget.evaluate((el) => el.setAttribute('locale', 'es-CO'));
  // Latin America's "vencimiento", not Spain's "caducidad".
  await expect(page.getByLabel('Fecha de vencimiento')).toBeVisible();
  // The amount as Intl writes it for es-CO (euros are written alike in Chile).
  const amount = await page.evaluate(() =>
    new Intl.NumberFormat('es-CO', { style: 'currency', currency: 'EUR' }).format(10),
  );
  await expect(page.getByRole('button', { name: `Pagar ${amount}` })).toBeVisible();
  // Screen readers are told Colombia's Spanish, whichever file the words came from.
  const lang = await widget.evaluate((el) =>
    el.shadowRoot?.firstElementChild?.getAttribute('lang'),
  );
  expect(lang).toBe('es-CO');
  expect(asked).toEqual(['es-CL.js 200']);
});

test('the ES module build loads pt-BR, and the script-tag build de-CH, under the pages’ policy', async ({
  page,
  shop,
}) => {
  const asked = localeFiles(page);
  await openShop(page, shop, '/module.html?redirect=0');
  await page.locator('payment-widget').evaluate((el) => el.setAttribute('locale', 'pt-BR'));
  await expect(page.getByLabel('Nome impresso no cartão')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Pagar € 10,00' })).toBeVisible();

  const blocked: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) blocked.push(message.text());
  });
  await openShop(page, shop, '/?redirect=0');
  await page.locator('payment-widget').evaluate((el) => el.setAttribute('locale', 'de-CH'));
  await expect(page.getByLabel('Kartennummer')).toBeVisible();
  // Swiss German formats francs and euros its own way; Intl decides, not us.
  const label = await page.locator('payment-widget button[part~="button"]').textContent();
  expect(label?.trim()).toContain('bezahlen');
  // Swiss German's one word of its own rides in de-DE.js (src/widget/locales/all.ts).
  expect(asked).toEqual(['pt-BR.js 200', 'de-DE.js 200']);
  expect(blocked).toEqual([]);
});

// Swiss German, French and Italian each word one thing their own way, which rides in the file
// of their language's first locale: its words, then the region's over them.
test('the script-tag build words Swiss German and Swiss French their own way from de-DE.js and fr-FR.js', async ({
  page,
  shop,
}) => {
  const asked = localeFiles(page);
  await openShop(page, shop, '/?currency=BRL');
  const widget = page.locator('payment-widget');
  await widget.evaluate((el) => el.setAttribute('locale', 'de-CH'));
  await page.getByRole('radio', { name: 'Boleto' }).check();
  await expect(page.getByLabel('Strasse und Hausnummer')).toBeVisible();
  await expect(page.getByLabel('Postleitzahl', { exact: true })).toBeVisible();
  await widget.evaluate((el) => el.setAttribute('locale', 'de-DE'));
  await expect(page.getByLabel('Straße und Hausnummer')).toBeVisible();
  await widget.evaluate((el) => el.setAttribute('locale', 'fr-CH'));
  await expect(page.getByLabel('NPA', { exact: true })).toBeVisible();
  await widget.evaluate((el) => el.setAttribute('locale', 'fr-FR'));
  await expect(page.getByLabel('Code postal', { exact: true })).toBeVisible();
  // One file each language: the page in de-DE and fr-FR asks for none again.
  expect(asked).toEqual(['de-DE.js 200', 'fr-FR.js 200']);
  expect(await violations(page)).toEqual([]);
});

test('?locale=de-DE: the page route renders the widget in German from the served de-DE.js', async ({
  page,
  shop,
}) => {
  const asked = localeFiles(page);
  await page.goto(new URL('/?locale=de-DE', shop.url).href);
  await expect(page.getByRole('button', { name: '10,00 € bezahlen' })).toBeEnabled();
  for (const label of ['Kartennummer', 'Ablaufdatum', 'Sicherheitscode', 'Name auf der Karte']) {
    await expect(page.getByLabel(label)).toBeVisible();
  }
  // Only the widget speaks German; the shop's own text around it stays English.
  // Said on the widget's own content, and by the page on the host (its server wrote `lang`).
  await expect(page.locator('payment-widget form')).toHaveAttribute('lang', 'de-DE');
  await expect(page.locator('payment-widget')).toHaveAttribute('lang', 'de-DE');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  expect(asked).toEqual(['de-DE.js 200']);
  expect(await violations(page)).toEqual([]);
});

test('the 3DS iframe is named for screen readers and passes axe in de-DE', async ({
  page,
  shop,
}) => {
  await page.goto(new URL('/?redirect=0&locale=de-DE', shop.url).href);
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

test('while the checkout loads, the placeholder is hidden from axe and the widget is busy', async ({
  page,
  shop,
}) => {
  let answer: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    answer = resolve;
  });
  // The page's checkout, whether the widget reads it (by id) or asks for it (by order).
  await page.route(/\/payments\/checkouts(?:\/|$)/, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto(new URL('/', shop.url).href);
  const widget = page.locator('payment-widget');
  await expect.poll(() => widgetBusy(page)).toBe(true);
  // Said without touching the host's attributes, which are the page's own.
  await expect(widget).not.toHaveAttribute('aria-busy', /.*/);
  await expect(page.getByText('Loading payment form…')).toBeAttached();
  // The placeholder's fields are no fields yet: nothing to name, focus or fill.
  await expect(page.getByRole('textbox')).toHaveCount(0);
  expect(await violations(page)).toEqual([]);
  answer();
  await expect(page.getByRole('button', { name: 'Pay €10.00' })).toBeEnabled();
  expect(await widgetBusy(page)).toBe(false);
  await expect(widget).not.toHaveAttribute('aria-busy', /.*/);
  expect(await violations(page)).toEqual([]);
});
