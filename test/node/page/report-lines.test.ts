// What the operator reads of a payment page's violations: the log line names what was
// injected when the browser said (a Trusted Types violation's blocked "URL" is always
// `trusted-types-sink`; its sample holds the sink and the script), each injection is its own
// violation, and a handler without a logger puts every distinct one on the console.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Sandbox } from '../../../src/sandbox/index.ts';
import { ORIGIN, startSandbox } from '../server/fixtures.ts';
import { CSP_REPORT, reporting } from './reporting.ts';

let sb: Sandbox;
before(async () => {
  sb = await startSandbox();
});
after(async () => {
  await sb.close();
});

/** What Chromium sends to report-uri when `blocked` was stopped on the checkout page. */
function report(directive: string, blocked: string, sample = '') {
  return {
    'csp-report': {
      'document-uri': `${ORIGIN}/checkout`,
      referrer: '',
      'violated-directive': directive,
      'effective-directive': directive,
      'original-policy':
        "script-src 'nonce-abc' 'strict-dynamic'; require-trusted-types-for 'script'",
      disposition: 'enforce',
      'blocked-uri': blocked,
      'line-number': 3,
      'column-number': 22,
      'status-code': 200,
      'script-sample': sample,
    },
  };
}

test('a script stopped by Trusted Types is named in the log, and each one is its own violation', async () => {
  const r = reporting(sb);
  const tt = 'require-trusted-types-for';
  const skimmer = 'HTMLScriptElement src|https://cdn.evil.example/skim.js?k=1';
  assert.equal((await r.post(report(tt, 'trusted-types-sink', skimmer), CSP_REPORT)).status, 204);
  assert.equal(
    (
      await r.post(
        report(tt, 'trusted-types-sink', 'HTMLScriptElement textContent|steal()'),
        CSP_REPORT,
      )
    ).status,
    204,
  );
  assert.deepEqual(
    r.seen.map((v) => v.sample),
    [
      'HTMLScriptElement src|https://cdn.evil.example/skim.js',
      'HTMLScriptElement textContent|steal()',
    ],
  );
  const lines = r.logs
    .map((line) => JSON.parse(line) as { problem?: string; message: string })
    .filter((e) => e.problem === 'page-violation')
    .map((e) => e.message);
  const page = `payment page ${ORIGIN}/checkout: its ${tt} blocked trusted-types-sink`;
  assert.deepEqual(lines, [
    `${page} ("HTMLScriptElement src|https://cdn.evil.example/skim.js")`,
    `${page} ("HTMLScriptElement textContent|steal()")`,
  ]);
  assert.doesNotMatch(r.logs.join('\n'), /k=1/);
});

test('without a logger, the console says each distinct violation, one after another', async (t) => {
  const warned = t.mock.method(console, 'warn', () => {});
  const r = reporting(sb, { logger: undefined });
  await r.post(report('script-src-elem', 'https://evil.example/skim.js'), CSP_REPORT);
  await r.post(report('script-src-elem', 'https://cdn2.example/v2/track.js'), CSP_REPORT);
  await r.post(report('script-src-elem', 'https://evil.example/skim.js'), CSP_REPORT);
  const lines = warned.mock.calls.map((call) => String(call.arguments[0]));
  assert.deepEqual(lines, [
    `payment-widget: payment page ${ORIGIN}/checkout: its script-src-elem blocked https://evil.example/skim.js`,
    `payment-widget: payment page ${ORIGIN}/checkout: its script-src-elem blocked https://cdn2.example/v2/track.js`,
  ]);
});
