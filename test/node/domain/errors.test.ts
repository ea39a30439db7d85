// The error contract as merchants read it: the README's table lists every code of the
// union once, with the retryable the handler sends, so the docs cannot drift from the code.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import {
  HANDLER_ERRORS,
  isHandlerErrorCode,
  WIDGET_ERROR_CODES,
} from '../../../src/domain/errors.ts';
import { errorJson } from '../../../src/http/errors.ts';

const README = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');

/** The rows of the README's "Errors" table (a section of the reference): code -> its retryable column. */
function readmeRows(): Map<string, string> {
  const section = README.split(/\n#{2,3} Errors\n/)[1]?.split(/\n#{2,3} /)[0] ?? '';
  const rows = new Map<string, string>();
  for (const line of section.split('\n')) {
    const cells = line.split('|').map((cell) => cell.trim());
    const code = /^`([A-Z_]+)`$/.exec(cells[1] ?? '')?.[1];
    if (code === undefined) continue;
    assert.ok(!rows.has(code), `${code} is listed twice`);
    rows.set(code, cells[3] ?? '');
  }
  return rows;
}

test('the README lists every PaymentErrorCode once, and nothing else', () => {
  const listed = [...readmeRows().keys()].sort();
  const union = [...Object.keys(HANDLER_ERRORS), ...WIDGET_ERROR_CODES].sort();
  assert.deepEqual(listed, union);
});

test('the README says for each handler code the retryable the handler sends', () => {
  const rows = readmeRows();
  for (const [code, { retryable }] of Object.entries(HANDLER_ERRORS)) {
    assert.equal(rows.get(code), retryable ? 'yes' : 'no', code);
  }
});

test('a handler error body carries the code, its usual status and retryable', async () => {
  for (const [code, { status, retryable }] of Object.entries(HANDLER_ERRORS)) {
    assert.ok(isHandlerErrorCode(code));
    const response = errorJson(status, code, 'why');
    assert.equal(response.status, status);
    assert.deepEqual(await response.json(), { error: { code, message: 'why', retryable } });
  }
  assert.equal(isHandlerErrorCode('NETWORK_ERROR'), false, 'a widget code is not the handler’s');
  assert.equal(isHandlerErrorCode('constructor'), false);
});
