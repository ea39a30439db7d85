/**
 * A payment page built as docs/pci.md teaches (widgetTags(), pageSecurityHeaders() with a new
 * nonce per response, the handler's POST /reports), in the engine ENGINE names: a card is paid
 * under that policy; a tampered parts/pay.js or locale file never runs (the marker it would
 * set stays unset), the widget says it could not be loaded and onPageViolation hears of it;
 * a script injected into the page is blocked and its CSP report reaches onPageViolation. A file
 * that a deploy replaced since the page loaded loads the page once more (the new build) instead.
 * A page that loads another copy of Lit first (a theme's components) needs 'allow-duplicates',
 * as the README says. A tampered part the shopper waits on (Pay pressed before the pay part
 * came, a challenge's step part) stops the widget with one payment-error, WIDGET_INTEGRITY,
 * and onPageViolation hears it from the widget (no engine reports a file that fails its
 * integrity): each test that tampers waits for its own report. So for the widget's first file,
 * by the guard widgetTags() writes; not reachable at all, it is said, with NETWORK_ERROR.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { sri } from '../../scripts/integrity.ts';
import type { Sandbox } from '../../src/sandbox/index.ts';
import {
  type PageViolation,
  pageSecurityHeaders,
  toNodeListener,
  widgetTags,
} from '../../src/server/index.ts';
import { CARDS } from '../e2e/shop.ts';
import { makeHandler, startSandbox } from '../node/server/fixtures.ts';
import { scaled, until } from '../shared/until.ts';
import { type Driver, EXISTS, nameArg, waitFor } from './driver.ts';
import { launch } from './launch.ts';
import { fillCard, PAY, seeText } from './shopper.ts';

const FLOW = { timeout: scaled(60_000) };
const DIST = 'dist';
/** What a tampered file would do if it ran: the test looks for it. */
const MARKER = 'document.documentElement.dataset.tampered = "ran";';
const NOT_LOADED = 'The payment form could not be loaded';
/** The words in the page's widgets a screen reader announces (`role="alert"`). */
const ALERTS = `return [...document.querySelectorAll('payment-widget [role=alert]')].map((p) => p.textContent);`;
/** Whether the page was loaded again. */
const RELOADED = "return performance.getEntriesByType('navigation')[0]?.type === 'reload';";
/** Adds the page's widget once the page has loaded (which a part it waits on would hold). */
const ADD_WIDGET = `const widget = document.createElement('payment-widget');
widget.setAttribute('endpoint', '/payments');
widget.setAttribute('order', '{"sku":"tea","redirect":false}');
document.body.append(widget);`;

describe('a payment page under pageSecurityHeaders()', () => {
  let sb: Sandbox;
  let server: Server;
  let driver: Driver;
  let origin = '';
  const violations: PageViolation[] = [];
  /** Files of dist/ served with other bytes, and markup injected into the page. */
  const tampered = new Map<string, string>();
  const missing = new Set<string>(); // files of dist/ answered 404
  /** Files of dist/ whose answer waits until the promise settles. */
  const held = new Map<string, Promise<void>>();
  let injected = '';
  /** The pages served since a test set it to 0. */
  let served = 0;
  /** Set by a test: the pages served after the first are a new build, whose files all match. */
  let deployed = false;

  before(async () => {
    assert.ok(existsSync(join(DIST, 'integrity.json')), 'dist/ is missing: run `npm run build`');
    sb = await startSandbox();
    let payments: ReturnType<typeof toNodeListener> | undefined;
    server = createServer((req, res) => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      if (path.startsWith('/payments/') && payments) return void payments(req, res);
      if (path === '/pay' || path === '/pay/later' || path === '/pay/bare')
        return void page(new URL(req.url ?? '/', origin), res);
      if (path === '/injected.js') return void res.end(MARKER.replace('tampered', 'injected'));
      const file = path.replace(/^\/assets\//, '');
      if (missing.has(file)) return void res.writeHead(404).end();
      if (path.startsWith('/assets/') && !file.includes('..') && existsSync(join(DIST, file))) {
        return void (held.get(file) ?? Promise.resolve()).then(() => {
          res.writeHead(200, { 'content-type': 'text/javascript', 'cache-control': 'no-store' });
          res.end(tampered.get(file) ?? readFileSync(join(DIST, file)));
        });
      }
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const harness = makeHandler(sb, {
      publicUrl: `${origin}/payments`,
      allowedOrigins: [origin],
      hooks: { onPageViolation: (v) => void violations.push(v) },
    });
    payments = toNodeListener(harness.handle);
    driver = await launch();
  });

  after(async () => {
    await driver?.close();
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    await sb?.close();
  });

  /**
   * The page, as the docs write it: a new nonce, the widget's tag, the policy's headers.
   * /pay/bare: without a nonce, its own inline script allowed by its hash; the ES module build.
   */
  function page(url: URL, res: ServerResponse): void {
    served++;
    if (deployed && served > 1) tampered.clear();
    const bare = url.pathname === '/pay/bare';
    const nonce = bare ? undefined : randomBytes(16).toString('base64');
    const tags = widgetTags({ assetsUrl: '/assets/', nonce, module: bare });
    // The codes of the payment-errors the page heard, in order (`data-errors`), and what its
    // policy refused (`data-refused`).
    const listen = `addEventListener('payment-error', (e) => { const d = document.documentElement.dataset; d.errors = [d.errors, e.detail.code].filter(Boolean).join(' '); });
addEventListener('securitypolicyviolation', (e) => { const d = document.documentElement.dataset; d.refused = [d.refused, e.effectiveDirective + ' ' + e.blockedURI].filter(Boolean).join(', '); });`;
    const headers = pageSecurityHeaders({
      nonce,
      // Plain http on loopback: the full URL, named in report-uri alone.
      reportPath: `${origin}/payments/reports`,
      // The sandbox's 3-D Secure pages, on loopback over http.
      extra: {
        ...tags.csp,
        ...(bare
          ? { 'script-src': [...(tags.csp['script-src'] ?? []), `'${sri(listen, 'sha256')}'`] }
          : {}),
        'frame-src': [sb.url],
        'form-action': [sb.url],
        ...(url.searchParams.has('duplicates') ? { 'trusted-types': ["'allow-duplicates'"] } : {}),
      },
    });
    const locale = url.searchParams.get('locale');
    // Another copy of Lit, loaded first, has made its 'lit-html' policy; ?duplicates allows a
    // second one, as the README says such a page must.
    const theme = url.searchParams.has('theme')
      ? `<script nonce="${nonce}">trustedTypes.createPolicy('lit-html', { createHTML: (s) => s });</script>`
      : '';
    const heard = `<script${nonce === undefined ? '' : ` nonce="${nonce}"`}>${listen}</script>`;
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...headers });
    const widget = `<payment-widget endpoint="/payments" order='{"sku":"tea","redirect":false}'${locale ? ` locale="${locale}"` : ''}></payment-widget>`;
    // /pay/later: the page loads without it, and a test adds it (ADD_WIDGET).
    res.end(`<!doctype html><html lang="en"><head><title>Pay</title>${theme}${heard}${tags.html}</head><body>
      ${url.pathname === '/pay/later' ? '' : widget}
      ${injected}</body></html>`);
  }

  /** Forgets the files this tab's pages loaded again for (the widget keeps them per tab). */
  async function forgetReloads(): Promise<void> {
    await driver.goto(`${origin}/assets/integrity.json`);
    await driver.run('sessionStorage.clear();');
  }

  const marker = (name: string) =>
    driver.run<string | null>(`return document.documentElement.dataset.${name} ?? null;`);

  it('a card is paid under the policy', FLOW, async () => {
    await driver.goto(`${origin}/pay`);
    // The form is payable once the Pay button shows (what is typed before may be drawn over).
    await waitFor('the Pay button', () => driver.run<boolean>(EXISTS, 'control', nameArg(PAY)));
    await fillCard(driver, CARDS.paid);
    await driver.click(PAY);
    await seeText(driver, 'Payment successful');
    assert.deepEqual(violations, [], 'the policy blocked something the payment needed');
  });

  for (const [path, file] of [
    ['/pay', 'parts/pay.js'],
    ['/pay?locale=de-DE', 'locales/de-DE.js'],
    // The widget's first file, told by the guard widgetTags() writes (before: an empty box, no
    // event, no report); /pay/bare: without a nonce, the ES module build.
    ['/pay', 'payment-widget.iife.js'],
    ['/pay/bare', 'payment-widget.js'],
  ] as const) {
    it(
      `a tampered ${file} (${path}) never runs; the widget says so and onPageViolation hears`,
      FLOW,
      async () => {
        tampered.set(file, MARKER);
        try {
          await forgetReloads();
          served = 0;
          const before = violations.length;
          await driver.goto(`${origin}${path}`);
          await seeText(driver, 'The payment form could not be loaded');
          const report = await reportOf(file, before);
          assert.equal(report?.kind, 'integrity');
          assert.equal(report?.documentUrl, `${origin}${path.replace(/\?.*/, '')}`);
          assert.equal(await marker('tampered'), null, `${file} ran`);
          assert.equal(await marker('refused'), null, 'the policy refused a script of ours');
          // Loaded once more, in case a deploy replaced the file: then stopped, no loop.
          assert.equal(served, 2);
          if (!file.startsWith('payment-widget')) return;
          assert.equal(await stoppedHearing(), 'WIDGET_INTEGRITY');
          assert.deepEqual(await driver.run(ALERTS), [NOT_LOADED]);
        } finally {
          tampered.clear();
        }
      },
    );
  }

  /**
   * The first violation onPageViolation heard since `before` reports, once it is heard: a
   * report comes after the page has moved on, so a test that tampers waits for its own, or the
   * next test would hear it.
   */
  async function reportOf(file: string, before: number) {
    await until(
      () => `a report of ${file} (got ${JSON.stringify(violations.slice(before))})`,
      () => violations.length > before,
      10_000,
    );
    const [report] = violations.slice(before);
    assert.equal(report?.blockedUrl, `${origin}/assets/${file}`);
    return report;
  }

  /**
   * This tab has loaded the page again once for `file` already: a tampered one stops the
   * widget at once (reload() in src/widget/parts/tampering.ts, keyed by its built hash).
   */
  async function reloadedFor(file: string): Promise<void> {
    await forgetReloads();
    await driver.run(
      'sessionStorage[arguments[0]] = 1;',
      sri(readFileSync(join(DIST, file)), 'sha256'),
    );
  }

  /**
   * The widget stopped, and the page heard why (WIDGET_INTEGRITY comes last: the verdict on
   * the file): the codes of every payment-error the page heard.
   */
  async function stoppedHearing(): Promise<string | null> {
    await seeText(driver, 'The payment form could not be loaded');
    await waitFor('WIDGET_INTEGRITY heard', async () =>
      Boolean((await marker('errors'))?.includes('WIDGET_INTEGRITY')),
    );
    return marker('errors');
  }

  it(
    'Pay pressed before the pay part came, which comes tampered: the widget stops, and the page hears WIDGET_INTEGRITY alone',
    FLOW,
    async () => {
      let release = () => {};
      held.set('parts/pay.js', new Promise((resolve) => (release = resolve)));
      tampered.set('parts/pay.js', MARKER);
      const before = violations.length;
      try {
        await reloadedFor('parts/pay.js');
        // Added after the page's load event, which the held part would hold. A page of its own:
        // the handler gives onPageViolation each distinct violation once a day, and the same
        // file failing on /pay was heard already (a query, cut from every URL, would not do).
        await driver.goto(`${origin}/pay/later`);
        await driver.run(ADD_WIDGET);
        await waitFor('the Pay button', () => driver.run<boolean>(EXISTS, 'control', nameArg(PAY)));
        await fillCard(driver, CARDS.paid);
        await driver.click(PAY);
        await seeText(driver, 'Processing…');
        release();
        // Said once the part is judged: no NETWORK_ERROR with "Try again" for a file that can
        // never run.
        assert.equal(await stoppedHearing(), 'WIDGET_INTEGRITY');
        assert.equal(await marker('tampered'), null, 'parts/pay.js ran');
        const report = await reportOf('parts/pay.js', before);
        assert.equal(report?.kind, 'integrity');
        assert.equal(report?.documentUrl, `${origin}/pay/later`);
      } finally {
        release();
        held.clear();
        tampered.clear();
      }
    },
  );

  it(
    'a challenge whose step part is tampered: the widget stops, and the page hears WIDGET_INTEGRITY alone',
    FLOW,
    async () => {
      tampered.set('parts/step.js', MARKER);
      const before = violations.length;
      try {
        await reloadedFor('parts/step.js');
        await driver.goto(`${origin}/pay`);
        await waitFor('the Pay button', () => driver.run<boolean>(EXISTS, 'control', nameArg(PAY)));
        await fillCard(driver, CARDS.challenge);
        await driver.click(PAY);
        // Before: NETWORK_ERROR first, as for a part that did not come, then WIDGET_INTEGRITY.
        assert.equal(await stoppedHearing(), 'WIDGET_INTEGRITY');
        assert.equal(await marker('tampered'), null, 'parts/step.js ran');
        await reportOf('parts/step.js', before);
      } finally {
        tampered.clear();
      }
    },
  );

  // The page runs the old build, whose pay part the server no longer has (the new build's), or
  // was cached from before the deploy and names the old hash of the widget's first file; the
  // page served next is the new build, whose files all match.
  for (const file of ['parts/pay.js', 'payment-widget.iife.js']) {
    it(
      `a ${file} that a deploy replaced since the page loaded: the page loads once more, pays, and nothing is reported`,
      FLOW,
      async () => {
        tampered.set(file, MARKER);
        deployed = true;
        try {
          await forgetReloads();
          served = 0;
          const before = violations.length;
          await driver.goto(`${origin}/pay`);
          // The old page may draw its form too before its pay part fails: fill the one reloaded.
          await waitFor('the page loaded again', () => driver.run<boolean>(RELOADED));
          await waitFor('the Pay', () => driver.run<boolean>(EXISTS, 'control', nameArg(PAY)));
          await fillCard(driver, CARDS.paid);
          await driver.click(PAY);
          await seeText(driver, 'Payment successful');
          assert.equal(served, 2);
          assert.equal(await marker('errors'), null);
          assert.deepEqual(violations.slice(before), [], 'a deploy reported as tampering');
        } finally {
          deployed = false;
          tampered.clear();
        }
      },
    );
  }

  it(
    "the widget's own file not reachable: the page says the form could not be loaded and hears NETWORK_ERROR, not tampering",
    FLOW,
    async () => {
      missing.add('payment-widget.iife.js');
      try {
        await forgetReloads();
        served = 0;
        await driver.goto(`${origin}/pay`);
        await seeText(driver, 'The payment form could not be loaded');
        assert.equal(await waitFor('NETWORK_ERROR heard', () => marker('errors')), 'NETWORK_ERROR');
        assert.deepEqual(await driver.run(ALERTS), [NOT_LOADED]);
        // Not loaded again: no answer is no deploy.
        assert.equal(served, 1);
      } finally {
        missing.clear();
      }
    },
  );

  it(
    'a script injected into the page is blocked, and its report reaches onPageViolation',
    FLOW,
    async () => {
      injected = '<script src="/injected.js"></script>';
      try {
        const before = violations.length;
        await driver.goto(`${origin}/pay`);
        await until(
          () => `a CSP report (got ${JSON.stringify(violations)})`,
          () => violations.slice(before).some((v) => v.blockedUrl === `${origin}/injected.js`),
          15_000,
        );
        const report = violations.slice(before).find((v) => v.blockedUrl.endsWith('/injected.js'));
        assert.equal(report?.kind, 'csp');
        assert.match(report?.directive ?? '', /^script-src/);
        assert.equal(await marker('injected'), null, 'the injected script ran');
      } finally {
        injected = '';
      }
    },
  );

  it(
    'a page with another copy of Lit first pays only with trusted-types allow-duplicates',
    FLOW,
    async () => {
      // Without it, the widget's own Lit throws creating its policy: the element is never defined.
      await driver.goto(`${origin}/pay?theme`);
      const defined = 'return customElements.get("payment-widget") !== undefined;';
      assert.equal(await driver.run<boolean>(defined), false);
      await driver.goto(`${origin}/pay?theme&duplicates`);
      await waitFor('the Pay button', () => driver.run<boolean>(EXISTS, 'control', nameArg(PAY)));
      const before = violations.length;
      await fillCard(driver, CARDS.paid);
      await driver.click(PAY);
      await seeText(driver, 'Payment successful');
      assert.deepEqual(
        violations.slice(before),
        [],
        'the policy blocked something the payment needed',
      );
    },
  );
});
