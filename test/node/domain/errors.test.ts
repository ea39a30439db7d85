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
import { createPaymentHandler } from '../../../src/server/index.ts';

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

test('errorJson: the body carries the code and its usual retryable, the answer the status given', async () => {
  for (const [code, { status, retryable }] of Object.entries(HANDLER_ERRORS)) {
    assert.ok(isHandlerErrorCode(code));
    const response = errorJson(status, code, 'why');
    assert.equal(response.status, status);
    assert.deepEqual(await response.json(), { error: { code, message: 'why', retryable } });
  }
  assert.equal(isHandlerErrorCode('NETWORK_ERROR'), false, 'a widget code is not the handler’s');
  assert.equal(isHandlerErrorCode('constructor'), false);
});

test('the handler answers each code it is made to give with that code’s usual status and retryable', async (t) => {
  const handler = createPaymentHandler({
    // Nothing listens there: a call to the provider cannot be answered.
    provider: {
      baseUrl: 'http://127.0.0.1:9',
      apiKey: 'sk_test_x',
      merchantCode: 'M1',
      retries: 0,
    },
    publicUrl: 'https://shop.example/payments',
    allowedOrigins: ['https://shop.example'],
    resultPages: { success: '/ok', failure: '/failed' },
    resolveCheckout: () => ({ amount: 10, currency: 'EUR' }),
    rateLimit: { checkoutsPerClient: { limit: 1 }, clientAddress: () => '192.0.2.1' },
    logger: () => {},
  });
  const call = (method: string, path: string, init: RequestInit = {}) =>
    handler(
      new Request(`https://shop.example/payments${path}`, {
        method,
        ...init,
        headers: { origin: 'https://shop.example', ...init.headers },
      }),
    );
  const json = { 'content-type': 'application/json' };
  const answers = [
    await call('GET', '/no-such-route'),
    await call('DELETE', '/checkouts/abc'),
    await call('POST', '/checkouts', { headers: { origin: 'https://evil.example', ...json } }),
    await call('POST', '/checkouts', { headers: { 'content-type': 'text/plain' }, body: 'x' }),
    await call('POST', '/checkouts', { headers: json, body: '{' }),
    await call('POST', '/checkouts', { headers: json, body: '{}' }),
    await call('PUT', '/checkouts/abc', { headers: json, body: '{"payment_type":"card"}' }),
    await call('POST', '/checkouts', { headers: json, body: '{"order":"tea"}' }),
    await call('POST', '/checkouts', { headers: json, body: '{"order":"tea"}' }),
  ];
  const seen = new Map<string, { status: number; retryable: boolean }>();
  for (const answer of answers) {
    const { error } = (await answer.json()) as { error: { code: string; retryable: boolean } };
    seen.set(error.code, { status: answer.status, retryable: error.retryable });
  }
  t.diagnostic(`answered: ${[...seen].map(([code, a]) => `${code} ${a.status}`).join(', ')}`);
  // Enough different codes that a route answering with a status of its own would show.
  assert.ok(seen.size >= 7, `codes seen: ${[...seen.keys()].join(', ')}`);
  for (const [code, answer] of seen) {
    assert.ok(isHandlerErrorCode(code), code);
    const { status, retryable } = HANDLER_ERRORS[code];
    assert.deepEqual(answer, { status, retryable }, code);
  }
});
