// The companion handler's side of the one URL rule: the same table the widget's
// browser test reads (test/shared/browser-urls.ts), through the names
// `payment-widget/server` exports, and the base-URL check built on it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  createProviderClient,
  isLoopbackHost,
  isSafeBrowserUrl,
} from '../../../src/server/index.ts';
import { BROWSER_URL_CASES, LOOPBACK_HOST_CASES } from '../../shared/browser-urls.ts';

test('the handler accepts and refuses the same browser URLs as the widget', () => {
  for (const [url, safe] of BROWSER_URL_CASES) {
    assert.equal(isSafeBrowserUrl(url), safe, url);
  }
});

test('the handler counts the same hosts as loopback as the widget', () => {
  for (const [host, loopback] of LOOPBACK_HOST_CASES) {
    assert.equal(isLoopbackHost(host), loopback, host);
  }
});

test('a non-string is never a safe browser URL', () => {
  for (const value of [undefined, null, 42, {}, ['https://a.example/']]) {
    assert.equal(isSafeBrowserUrl(value), false, String(value));
  }
});

test('the provider base URL may be plain http only on a host the rule calls loopback', () => {
  const apiKey = 'sk_test_example';
  for (const [host, loopback] of LOOPBACK_HOST_CASES) {
    if (host === '' || host === '::1') continue; // not spellable as a URL's host
    const baseUrl = `http://${host}:4010`;
    const create = () => createProviderClient({ baseUrl, apiKey });
    if (loopback) assert.doesNotThrow(create, baseUrl);
    else assert.throws(create, /https/, baseUrl);
  }
});
