// The shared deprecation mechanism: every deprecated endpoint of the seed answers with an
// RFC 9745 Deprecation header and, where the seed has a successor, a successor-version Link
// that keeps the query; current endpoints carry neither.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DEPRECATED_SINCE } from '../../../src/sandbox/middleware/deprecation.ts';
import { type Harness, startSandbox } from '../sandbox/helpers.ts';
import { MERCHANT, paidTransaction } from './helpers.ts';

describe('deprecated endpoints', () => {
  let h: Harness;
  let txn: { id: string };
  before(async () => {
    h = await startSandbox();
    txn = await paidTransaction(h);
  });
  after(() => h.sandbox.close());

  test('transactions v0.1 point to their v2.1 successors', async () => {
    const one = await h.api('GET', `/v0.1/me/transactions?id=${txn.id}`);
    assert.equal(one.status, 200);
    assert.equal(one.headers.get('deprecation'), `@${DEPRECATED_SINCE}`);
    assert.equal(
      one.headers.get('link'),
      `<${h.sandbox.url}/v2.1/merchants/${MERCHANT}/transactions?id=${txn.id}>; rel="successor-version"`,
    );
    const history = await h.api('GET', '/v0.1/me/transactions/history?limit=1');
    assert.equal(
      history.headers.get('link'),
      `<${h.sandbox.url}/v2.1/merchants/${MERCHANT}/transactions/history?limit=1>; rel="successor-version"`,
    );
    // The successor answers the same lookup.
    const successor = await h.api('GET', `/v2.1/merchants/${MERCHANT}/transactions?id=${txn.id}`);
    assert.deepEqual(successor.body, one.body);
  });

  test('errors from a deprecated endpoint carry the header too', async () => {
    const res = await h.api('GET', '/v0.1/me/transactions', undefined, null);
    assert.equal(res.status, 401);
    assert.equal(res.headers.get('deprecation'), `@${DEPRECATED_SINCE}`);
  });

  test('current endpoints carry neither header', async () => {
    for (const path of [
      `/v2.1/merchants/${MERCHANT}/transactions?id=${txn.id}`,
      `/v1.1/merchants/${MERCHANT}/bank-accounts`,
      '/v0.1/me',
      `/v0.1/merchants/${MERCHANT}/readers`,
    ]) {
      const res = await h.api('GET', path);
      assert.equal(res.status, 200, path);
      assert.equal(res.headers.get('deprecation'), null, path);
      assert.equal(res.headers.get('link'), null, path);
    }
  });
});
