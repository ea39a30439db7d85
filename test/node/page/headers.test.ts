// What a merchant puts in a payment page: widgetTags()' markup, with the integrity of the very
// files dist/ holds, and pageSecurityHeaders()' policy, which allows the widget and nothing it
// does not need, and reports to the handler. Bad options are refused by name.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { pageSecurityHeaders, widgetTags } from '../../../src/server/index.ts';
import { ENTRY_GUARD, ENTRY_GUARD_HASH } from '../../../src/server/page/entry-guard.ts';

const NONCE = 'cGF5bWVudC13aWRnZXQtbm9uY2U=';

/** The policy's directives, by name. */
function directives(policy: string): Map<string, string[]> {
  return new Map(
    policy.split(';').map((part) => {
      const [name = '', ...sources] = part.trim().split(/\s+/);
      return [name, sources];
    }),
  );
}

const sri = (path: string) =>
  `sha384-${createHash('sha384')
    .update(readFileSync(`dist/${path}`))
    .digest('base64')}`;

describe('widgetTags', () => {
  test('the script tag names the built bundle with its integrity, crossorigin and the nonce', () => {
    const tags = widgetTags({ assetsUrl: '/assets/', nonce: NONCE });
    // After the guard that tells the page when that file fails (entry-guard.test.ts).
    assert.equal(
      tags.html,
      `<script nonce="${NONCE}">${ENTRY_GUARD}</script><script src="/assets/payment-widget.iife.js" integrity="${sri('payment-widget.iife.js')}" crossorigin="anonymous" nonce="${NONCE}"></script>`,
    );
    assert.equal(tags.src, '/assets/payment-widget.iife.js');
    assert.deepEqual(tags.csp, {
      'script-src': ["'self'", ENTRY_GUARD_HASH],
      'connect-src': ["'self'"],
    });
  });

  test('the ES module build, from another origin, asks the policy for that origin', () => {
    const tags = widgetTags({ assetsUrl: 'https://cdn.example/pw/0.1.0', module: true });
    assert.match(
      tags.html,
      /<\/script><script type="module" src="https:\/\/cdn\.example\/pw\/0\.1\.0\/payment-widget\.js" /,
    );
    assert.equal(tags.integrity, sri('payment-widget.js'));
    assert.doesNotMatch(tags.html, /nonce=/);
    assert.deepEqual(tags.csp, {
      'script-src': ['https://cdn.example', ENTRY_GUARD_HASH],
      'connect-src': ['https://cdn.example'],
    });
  });

  test('a URL relative to the page stays relative', () => {
    assert.equal(widgetTags({ assetsUrl: 'assets' }).src, 'assets/payment-widget.iife.js');
  });

  test('refuses what is not a folder URL, or not a nonce, by name', () => {
    for (const assetsUrl of [
      '',
      'javascript:alert(1)',
      'https://u:p@cdn.example/',
      '/assets/?v=1',
      42,
    ]) {
      assert.throws(
        () => widgetTags({ assetsUrl } as { assetsUrl: string }),
        (error: Error) => error instanceof TypeError && error.message.includes('assetsUrl'),
        String(assetsUrl),
      );
    }
    for (const nonce of ['short', 'has spaces in it 12345', '"><script>alert(1)</script>']) {
      assert.throws(
        () => widgetTags({ assetsUrl: '/assets/', nonce }),
        (error: Error) => error instanceof TypeError && error.message.includes('nonce'),
        nonce,
      );
    }
  });

  test('the markup escapes what it is given', () => {
    const tags = widgetTags({ assetsUrl: '/a"b<c>/' });
    assert.match(tags.html, /src="\/a&#34;b&#60;c&#62;\/payment-widget\.iife\.js"/);
  });
});

describe('pageSecurityHeaders', () => {
  test('a nonce-based strict policy with Trusted Types, reporting to the handler both ways', () => {
    const headers = pageSecurityHeaders({ nonce: NONCE });
    const policy = directives(headers['Content-Security-Policy'] ?? '');
    assert.deepEqual(policy.get('script-src'), [`'nonce-${NONCE}'`, "'strict-dynamic'", "'self'"]);
    assert.deepEqual(policy.get('style-src'), ["'self'", `'nonce-${NONCE}'`]);
    assert.deepEqual(policy.get('default-src'), ["'self'"]);
    assert.deepEqual(policy.get('object-src'), ["'none'"]);
    assert.deepEqual(policy.get('base-uri'), ["'none'"]);
    assert.deepEqual(policy.get('require-trusted-types-for'), ["'script'"]);
    assert.deepEqual(policy.get('trusted-types'), ['lit-html', 'payment-widget']);
    // 3-D Secure pages of any card issuer, framed or posted to, over https only; and the
    // handler's /return a framed challenge may end on, on the page's own origin.
    assert.deepEqual(policy.get('frame-src'), ["'self'", 'https:']);
    assert.deepEqual(policy.get('form-action'), ["'self'", 'https:']);
    assert.deepEqual(policy.get('report-uri'), ['/payments/reports']);
    assert.deepEqual(policy.get('report-to'), ['payment-widget']);
    assert.equal(headers['Reporting-Endpoints'], 'payment-widget="/payments/reports"');
    assert.doesNotMatch(headers['Content-Security-Policy'] ?? '', /unsafe-inline|unsafe-eval|\*/);
  });

  test('without a nonce, scripts by origin only', () => {
    const policy = directives(pageSecurityHeaders()['Content-Security-Policy'] ?? '');
    assert.deepEqual(policy.get('script-src'), ["'self'"]);
    assert.deepEqual(policy.get('style-src'), ["'self'"]);
  });

  test('extra adds sources; a directive it names anew keeps what default-src allowed', () => {
    const tags = widgetTags({ assetsUrl: 'https://cdn.example/pw/', nonce: NONCE });
    const headers = pageSecurityHeaders({
      nonce: NONCE,
      extra: {
        ...tags.csp,
        'img-src': ['https://img.example'],
        'frame-src': ['http://127.0.0.1:4010'],
      },
    });
    const policy = directives(headers['Content-Security-Policy'] ?? '');
    assert.deepEqual(policy.get('script-src'), [
      `'nonce-${NONCE}'`,
      "'strict-dynamic'",
      "'self'",
      'https://cdn.example',
      ENTRY_GUARD_HASH,
    ]);
    assert.deepEqual(policy.get('connect-src'), ["'self'", 'https://cdn.example']);
    assert.deepEqual(policy.get('img-src'), ["'self'", 'https://img.example']);
    assert.deepEqual(policy.get('frame-src'), ["'self'", 'https:', 'http://127.0.0.1:4010']);
  });

  test('an http report URL (a page on loopback) is named in report-uri only, which browsers then use', () => {
    const headers = pageSecurityHeaders({ reportPath: 'http://127.0.0.1:3000/payments/reports' });
    const policy = directives(headers['Content-Security-Policy'] ?? '');
    assert.deepEqual(policy.get('report-uri'), ['http://127.0.0.1:3000/payments/reports']);
    assert.equal(policy.has('report-to'), false);
    assert.equal('Reporting-Endpoints' in headers, false);
  });

  test('refuses a malformed option by name, and anything that would break out of the header', () => {
    const refused = (options: object, name: string) =>
      assert.throws(
        () => pageSecurityHeaders(options),
        (error: Error) => error instanceof TypeError && error.message.includes(name),
        JSON.stringify(options),
      );
    refused({ nonce: 'abc' }, 'nonce');
    refused({ reportPath: 'reports' }, 'reportPath');
    refused({ reportPath: '/r"; evil' }, 'reportPath');
    refused({ reportPath: '/r\r\nSet-Cookie: a=b' }, 'reportPath');
    refused({ extra: { 'script-src': ["'self'; img-src *"] } }, "extra['script-src']");
    refused({ extra: { 'script-src': ['https://a.example\r\nX: y'] } }, "extra['script-src']");
    refused({ extra: { 'Script Src': ['https://a.example'] } }, 'extra');
    refused({ extra: ['https://a.example'] }, 'extra');
  });
});
