// POST /reports: the payment pages' violation reports, in both of the browsers' formats and in
// the widget's, reach `hooks.onPageViolation` once a day per distinct violation (whichever
// instance receives them, when they share a store), queries cut, extensions' noise and other
// sites' pages left out, every field capped; the body is capped, the client rate-limited, and
// nothing a report says makes the handler answer 5xx.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Sandbox } from '../../../src/sandbox/index.ts';
import { createMemoryStore, type PageViolation } from '../../../src/server/index.ts';
import { DISTINCT_PER_DAY } from '../../../src/server/page/reports.ts';
import { VIOLATION_CAPS } from '../../../src/server/page/violations.ts';
import { ORIGIN, startSandbox } from '../server/fixtures.ts';
import { inMemorySdk, points, total } from '../telemetry/sdk.ts';
import { reporting } from './reporting.ts';

let sb: Sandbox;
before(async () => {
  sb = await startSandbox();
});
after(async () => {
  await sb.close();
});

/** What Chrome sends to report-uri for an inline script the policy blocked. */
const cspReport = (documentUri = `${ORIGIN}/checkout?basket=42#pay`) => ({
  'csp-report': {
    'document-uri': documentUri,
    referrer: '',
    'violated-directive': 'script-src-elem',
    'effective-directive': 'script-src-elem',
    'original-policy': "script-src 'nonce-abc' 'strict-dynamic'",
    disposition: 'enforce',
    'blocked-uri': 'https://evil.example/skim.js?card=4242',
    'line-number': 12,
    'column-number': 3,
    'source-file': `${ORIGIN}/checkout?basket=42`,
    'status-code': 200,
    'script-sample': '',
  },
});

/** The Reporting API's list, with a report of a type that is none of ours. */
const reportsJson = [
  {
    type: 'csp-violation',
    age: 10,
    url: `${ORIGIN}/checkout?session=s3cret`,
    user_agent: 'Mozilla/5.0',
    body: {
      documentURL: `${ORIGIN}/checkout?session=s3cret`,
      blockedURL: 'inline',
      effectiveDirective: 'script-src-elem',
      disposition: 'report',
      sample: 'window.skim=1',
      sourceFile: `${ORIGIN}/checkout?session=s3cret`,
      lineNumber: 4,
      columnNumber: 9,
    },
  },
  { type: 'deprecation', url: `${ORIGIN}/checkout`, body: { id: 'x', message: 'y' } },
];

describe('POST /reports', () => {
  test('a report-uri report reaches onPageViolation with every query cut', async () => {
    const r = reporting(sb);
    const res = await r.post(cspReport(), 'application/csp-report');
    assert.equal(res.status, 204);
    assert.deepEqual(r.seen, [
      {
        kind: 'csp',
        documentUrl: `${ORIGIN}/checkout`,
        blockedUrl: 'https://evil.example/skim.js',
        directive: 'script-src-elem',
        disposition: 'enforce',
        sourceFile: `${ORIGIN}/checkout`,
        line: 12,
        column: 3,
      },
    ]);
    const logged = r.logs
      .map((line) => JSON.parse(line))
      .find((e) => e.problem === 'page-violation');
    assert.equal(logged?.level, 'warn');
    assert.match(logged?.message, /script-src-elem blocked https:\/\/evil\.example\/skim\.js/);
    assert.doesNotMatch(r.logs.join('\n'), /card=4242|basket=42/);
  });

  test('the Reporting API format: its CSP reports, report-only ones said so, other types left out', async () => {
    const r = reporting(sb);
    assert.equal((await r.post(reportsJson)).status, 204);
    assert.deepEqual(r.seen, [
      {
        kind: 'csp',
        documentUrl: `${ORIGIN}/checkout`,
        blockedUrl: 'inline',
        directive: 'script-src-elem',
        disposition: 'report',
        sourceFile: `${ORIGIN}/checkout`,
        line: 4,
        column: 9,
        sample: 'window.skim=1',
      },
    ]);
    assert.doesNotMatch(JSON.stringify(r.seen) + r.logs.join('\n'), /s3cret/);
  });

  test("the widget's integrity failure (its beacon's text/plain) is an error in the log", async () => {
    const r = reporting(sb);
    const body = [
      {
        type: 'payment-widget-integrity',
        url: `${ORIGIN}/checkout?x=1`,
        body: { blockedURL: `${ORIGIN}/assets/parts/pay.js`, integrity: 'sha384-abc' },
      },
    ];
    assert.equal((await r.post(body, 'text/plain;charset=UTF-8')).status, 204);
    assert.deepEqual(r.seen, [
      {
        kind: 'integrity',
        documentUrl: `${ORIGIN}/checkout`,
        blockedUrl: `${ORIGIN}/assets/parts/pay.js`,
        directive: 'integrity',
        disposition: 'enforce',
        integrity: 'sha384-abc',
      },
    ]);
    const logged = r.logs
      .map((line) => JSON.parse(line))
      .find((e) => e.problem === 'page-violation');
    assert.equal(logged?.level, 'error');
    assert.match(logged?.message, /parts\/pay\.js did not match its integrity sha384-abc/);
  });

  test('each distinct violation once a day, across the instances that share a store', async () => {
    const store = createMemoryStore();
    const one = reporting(sb, { store });
    const two = reporting(sb, { store });
    await one.post(cspReport(), 'application/csp-report');
    await two.post(cspReport(), 'application/csp-report');
    // The same violation at another line of the same file is the same violation.
    const moved = cspReport();
    moved['csp-report']['line-number'] = 99;
    await one.post(moved, 'application/csp-report');
    // On another page it is another.
    await two.post(cspReport(`${ORIGIN}/other`), 'application/csp-report');
    assert.deepEqual(
      [...one.seen, ...two.seen].map((v) => v.documentUrl),
      [`${ORIGIN}/checkout`, `${ORIGIN}/other`],
    );
    const logged = [...one.logs, ...two.logs].filter((l) => l.includes('"page-violation"'));
    assert.equal(logged.length, 2);
  });

  test("browser extensions' noise and other sites' pages are left out", async () => {
    const r = reporting(sb);
    for (const blocked of [
      'chrome-extension',
      'moz-extension://abc/x.js',
      'safari-web-extension://x/y.js',
    ]) {
      const report = cspReport();
      report['csp-report']['blocked-uri'] = blocked;
      await r.post(report, 'application/csp-report');
    }
    const masked = cspReport();
    masked['csp-report']['source-file'] = 'webkit-masked-url://hidden/';
    await r.post(masked, 'application/csp-report');
    await r.post(cspReport('https://elsewhere.example/checkout'), 'application/csp-report');
    await r.post(cspReport('about:blank'), 'application/csp-report');
    assert.deepEqual(r.seen, []);
  });

  test('every field is capped, and a hook that throws is logged', async () => {
    const r = reporting(sb, {
      hooks: {
        onPageViolation() {
          throw new Error('alerting is down');
        },
      },
    });
    const long = cspReport(`${ORIGIN}/${'p'.repeat(5000)}`);
    long['csp-report']['blocked-uri'] = `https://evil.example/${'b'.repeat(5000)}`;
    long['csp-report']['script-sample'] = 's'.repeat(500);
    long['csp-report']['effective-directive'] = `script-src-elem${'x'.repeat(500)}`;
    assert.equal((await r.post(long, 'application/csp-report')).status, 204);
    const logged = r.logs.map((line) => JSON.parse(line));
    const violation = logged.find((e) => e.problem === 'page-violation')
      ?.violation as PageViolation;
    assert.equal(violation.documentUrl.length, VIOLATION_CAPS.url);
    assert.equal(violation.blockedUrl.length, VIOLATION_CAPS.url);
    assert.equal(violation.sample?.length, VIOLATION_CAPS.sample);
    assert.ok(violation.directive.length <= VIOLATION_CAPS.directive);
    assert.ok(logged.some((e) => e.problem === 'hook-threw' && /alerting is down/.test(e.message)));
  });

  test('a body over 64 KiB is 413, another type 415, broken JSON 400; none reaches the hook', async () => {
    const r = reporting(sb);
    const big = JSON.stringify([{ ...reportsJson[0], pad: 'x'.repeat(64 * 1024) }]);
    assert.equal((await r.post(undefined, 'application/reports+json', big)).status, 413);
    assert.equal((await r.post(cspReport(), 'application/x-www-form-urlencoded')).status, 415);
    assert.equal((await r.post(undefined, 'application/csp-report', '{"csp-report":')).status, 400);
    // Well-formed JSON that is no report at all: nothing to keep, nothing to refuse.
    for (const body of [
      null,
      42,
      'text',
      [],
      [null],
      { 'csp-report': 'x' },
      [{ type: 'csp-violation' }],
    ]) {
      assert.equal((await r.post(body)).status, 204, JSON.stringify(body));
    }
    assert.deepEqual(r.seen, []);
  });

  test('a client over its reportsPerClient limit is refused with 429 and Retry-After', async () => {
    const r = reporting(sb, { rateLimit: { reportsPerClient: { limit: 3, windowMs: 60_000 } } });
    const statuses = [];
    for (let i = 0; i < 5; i++)
      statuses.push((await r.post(cspReport(`${ORIGIN}/p${i}`), 'application/csp-report')).status);
    assert.deepEqual(statuses, [204, 204, 204, 429, 429]);
    assert.equal(r.seen.length, 3);
  });

  test('each report is counted in payment_widget.page.violations, by kind and directive', async () => {
    const sdk = inMemorySdk();
    const r = reporting(sb, { telemetry: { meterProvider: sdk.meterProvider } });
    await r.post(cspReport(), 'application/csp-report');
    await r.post(cspReport(), 'application/csp-report');
    await r.post(
      [
        {
          type: 'payment-widget-integrity',
          url: `${ORIGIN}/c`,
          body: { blockedURL: `${ORIGIN}/a.js`, integrity: 'sha384-x' },
        },
      ],
      'text/plain',
    );
    const report = cspReport();
    report['csp-report']['effective-directive'] = 'made-up-directive';
    await r.post(report, 'application/csp-report');
    const all = await sdk.metrics();
    const name = 'payment_widget.page.violations';
    assert.equal(total(points(all, name)), 4);
    const csp = { 'payment_widget.violation.kind': 'csp' };
    assert.equal(
      total(points(all, name, { ...csp, 'payment_widget.violation.directive': 'script-src-elem' })),
      2,
    );
    assert.equal(
      total(points(all, name, { ...csp, 'payment_widget.violation.directive': '_OTHER' })),
      1,
    );
    assert.equal(total(points(all, name, { 'payment_widget.violation.kind': 'integrity' })), 1);
  });

  test(`past ${DISTINCT_PER_DAY} distinct violations in a day, the rest are counted only`, async () => {
    const r = reporting(sb, { rateLimit: false });
    const batch = (from: number) =>
      Array.from({ length: 50 }, (_, i) => ({
        type: 'csp-violation',
        url: `${ORIGIN}/c`,
        body: {
          documentURL: `${ORIGIN}/c`,
          blockedURL: `https://x.example/${from + i}.js`,
          effectiveDirective: 'script-src-elem',
        },
      }));
    for (let from = 0; from < DISTINCT_PER_DAY + 100; from += 50) await r.post(batch(from));
    assert.equal(r.seen.length, DISTINCT_PER_DAY);
    const capped = r.logs.filter((l) => l.includes('"page-violations-capped"'));
    assert.equal(capped.length, 1);
  });
});
