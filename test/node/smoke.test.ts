import assert from 'node:assert/strict';
import { test } from 'node:test';

test('node suite runs', () => {
  assert.equal(typeof fetch, 'function');
});
