// The one URL rule (src/shared/url.ts) as a table, asserted in the browser
// against the widget's import and in Node against the companion handler's
// export, so the two sides cannot drift apart again.

/** [url, whether a shopper's browser may be sent there] */
export const BROWSER_URL_CASES: readonly (readonly [string, boolean])[] = [
  ['https://acs.example.com/challenge?x=1', true],
  ['HTTPS://ACS.EXAMPLE.COM/', true],
  ['https://acs.example.com:8443/', true],
  ['http://127.0.0.1:4010/v0.1/checkouts/1/complete_payment', true],
  ['http://127.1.2.3/', true],
  ['http://127.1/', true],
  ['http://0x7f.1/', true],
  ['http://localhost:3000/return', true],
  ['http://LOCALHOST/', true],
  ['http://[::1]:4010/', true],
  ['http://[0:0:0:0:0:0:0:1]/', true],
  ['https://user@acs.example.com/', false],
  ['https://user:secret@acs.example.com/', false],
  ['https://acs.example.com@evil.example/', false],
  ['http://user@127.0.0.1/', false],
  ['https://:@acs.example.com/', true],
  ['http://example.com/', false],
  ['http://127.0.0.1.example.com/', false],
  ['http://localhost.example.com/', false],
  ['http://shop.localhost/', false],
  ['http://10.0.0.1/', false],
  ['http://[::2]/', false],
  ['javascript:alert(1)', false],
  ['JaVaScRiPt:alert(1)', false],
  ['data:text/html,<script>alert(1)</script>', false],
  ['ftp://example.com/', false],
  ['//example.com/path', false],
  ['/relative/path', false],
  ['', false],
  ['not a url', false],
];

/** [URL hostname, loopback or not] */
export const LOOPBACK_HOST_CASES: readonly (readonly [string, boolean])[] = [
  ['localhost', true],
  ['127.0.0.1', true],
  ['127.255.255.254', true],
  ['[::1]', true],
  ['::1', true],
  ['128.0.0.1', false],
  ['127.0.0.1.nip.io', false],
  ['shop.localhost', false],
  ['example.com', false],
  ['', false],
];
