/**
 * `npm start` as a user runs it (scripts/start.ts on free ports, building the React and
 * Vue pages when they are missing or out of date): every link on the demo's home page
 * answers 200 and shows a working widget, the element rendered with its card fields and
 * its submit button enabled, without a failed request or a console error on the way. The
 * card-reader page has no widget: it shows its till instead.
 */
import { expect, test } from '@playwright/test';
import { scaled } from '../shared/until.ts';
import { watchProblems } from './fixtures.ts';
import { exitCode, freePort, run } from './processes.ts';

test('every link on the home page answers 200 and shows a working widget', async ({ page }) => {
  // A fresh clone's first start installs and builds the example pages.
  test.setTimeout(scaled(240_000));
  const [sandboxPort, port] = [await freePort(), await freePort()];
  const started = await run(
    ['--import', 'tsx', 'scripts/start.ts'],
    { SANDBOX_PORT: String(sandboxPort), PORT: String(port) },
    /^(http:\/\/127\.0\.0\.1:\d+\/)$/m,
    180_000,
  );
  try {
    const home = started.match[1] ?? '';
    const problems = await watchProblems(page);
    await page.goto(home);
    const links = await page
      .locator('a[href]')
      .evaluateAll((anchors) => anchors.map((a) => (a as HTMLAnchorElement).href));
    const pages = [...new Set(links)];
    // The header's link home (the first outcome's too), the outcomes and pages, React and Vue.
    expect(pages.length, pages.join('\n')).toBeGreaterThanOrEqual(11);
    for (const href of pages) {
      expect(new URL(href).origin, href).toBe(new URL(home).origin);
      await test.step(href, async () => {
        const response = await page.goto(href);
        expect(response?.status(), href).toBe(200);
        if (new URL(href).pathname === '/in-person') {
          await expect(page.getByRole('heading', { name: /card reader/ })).toBeVisible();
          return;
        }
        const widget = page.locator('payment-widget');
        await expect(widget).toHaveCount(1);
        // Whatever the locale: the card fields by their autofill tokens.
        for (const field of ['cc-number', 'cc-exp', 'cc-csc']) {
          await expect(widget.locator(`input[autocomplete="${field}"]`), href).toBeVisible();
        }
        await expect(widget.locator('button[type="submit"]'), href).toBeEnabled();
      });
    }
    expect(problems).toEqual([]);
  } finally {
    started.child.kill('SIGINT');
    await exitCode(started.child);
  }
});
