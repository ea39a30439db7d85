import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { createSandbox } from '../../../src/sandbox/index.ts';
import { CheckoutSchema } from '../../../src/schemas/index.ts';
import { cardBody } from '../support/cards.ts';
import { checkoutBody, expectValid, type Harness, startSandbox } from './helpers.ts';

const harnesses: Harness[] = [];
const dirs: string[] = [];
after(async () => {
  await Promise.all(harnesses.map((x) => x.sandbox.close()));
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
async function start(options = {}) {
  const h = await startSandbox(options);
  harnesses.push(h);
  return h;
}

describe('reset', () => {
  test('POST /sandbox/reset forgets checkouts and faults; it needs a key', async () => {
    const h = await start();
    const c = expectValid(
      CheckoutSchema,
      (await h.api('POST', '/v0.1/checkouts', checkoutBody())).body,
    );
    await h.api('POST', '/sandbox/faults', { path: '/v0.1/customers', kind: 'error', times: 5 });
    h.expectError(await h.api('POST', '/sandbox/reset', undefined, null), 401, 'NOT_AUTHORIZED');
    assert.equal((await h.api('POST', '/sandbox/reset')).status, 204);
    h.expectError(await h.api('GET', `/v0.1/checkouts/${c.id}`), 404, 'NOT_FOUND');
    assert.deepEqual((await h.api('GET', '/sandbox/faults')).body, []);
  });
});

describe('faults', () => {
  test('error: the next n matching requests answer the status, then the route recovers', async () => {
    const h = await start();
    const add = await h.api('POST', '/sandbox/faults', {
      method: 'POST',
      path: '/v0.1/checkouts',
      kind: 'error',
      status: 503,
      times: 2,
    });
    assert.equal(add.status, 201);
    h.expectError(await h.api('POST', '/v0.1/checkouts', checkoutBody()), 503, 'INTERNAL_ERROR');
    // Another method on the same path is untouched.
    assert.equal((await h.api('GET', '/v0.1/checkouts')).status, 200);
    h.expectError(await h.api('POST', '/v0.1/checkouts', checkoutBody()), 503, 'INTERNAL_ERROR');
    assert.equal((await h.api('POST', '/v0.1/checkouts', checkoutBody())).status, 201);
  });

  test('latency delays a pattern-matched route; drop closes the connection', async () => {
    const h = await start();
    const c = expectValid(
      CheckoutSchema,
      (await h.api('POST', '/v0.1/checkouts', checkoutBody())).body,
    );
    await h.api('POST', '/sandbox/faults', {
      path: '/v0.1/checkouts/:id',
      kind: 'latency',
      delayMs: 150,
    });
    const started = performance.now();
    assert.equal((await h.api('GET', `/v0.1/checkouts/${c.id}`)).status, 200);
    assert.ok(performance.now() - started >= 140);
    await h.api('POST', '/sandbox/faults', { path: '/v0.1/checkouts', kind: 'drop' });
    await assert.rejects(h.api('PUT', `/v0.1/checkouts/${c.id}`, cardBody('4200000000000091')));
    // The dropped request never reached the handler: the checkout can still be paid.
    const res = await h.api('PUT', `/v0.1/checkouts/${c.id}`, cardBody('4200000000000091'));
    assert.equal(expectValid(CheckoutSchema, res.body).status, 'PAID');
  });

  test('DELETE /sandbox/faults clears them; bad fault bodies are 400 naming the field', async () => {
    const h = await start();
    await h.api('POST', '/sandbox/faults', { path: '/v0.1', kind: 'error', times: 100 });
    assert.equal(((await h.api('GET', '/sandbox/faults')).body as unknown[]).length, 1);
    assert.equal((await h.api('DELETE', '/sandbox/faults')).status, 204);
    assert.equal((await h.api('GET', '/v0.1/checkouts')).status, 200);
    h.expectError(
      await h.api('POST', '/sandbox/faults', { path: '/x', kind: 'explode' }),
      400,
      'INVALID',
      'kind',
    );
    h.expectError(await h.api('POST', '/sandbox/faults', { kind: 'drop' }), 400, 'MISSING', 'path');
    h.expectError(
      await h.api('POST', '/sandbox/faults', { path: '/x', kind: 'error', status: 418 }),
      400,
      'INVALID',
      'status',
    );
  });
});

describe('handle() without a socket', () => {
  test('the same app answers Web Requests directly', async () => {
    const h = await start();
    const res = await h.sandbox.handle(
      new Request('http://sandbox.test/v0.1/checkouts', {
        method: 'POST',
        headers: {
          authorization: `Bearer ${h.sandbox.apiKey}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify(checkoutBody()),
      }),
    );
    assert.equal(res.status, 201);
    const c = expectValid(CheckoutSchema, await res.json());
    const again = await h.api('GET', `/v0.1/checkouts/${c.id}`);
    assert.equal(again.status, 200);
  });
});

describe('--data file', () => {
  test('state survives a restart; the file holds no card number or CVV', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sandbox-data-'));
    dirs.push(dir);
    const dataFile = join(dir, 'state.json');
    const first = await createSandbox({ dataFile });
    const headers = { authorization: `Bearer ${first.apiKey}`, 'content-type': 'application/json' };
    const created = await fetch(`${first.url}/v0.1/checkouts`, {
      method: 'POST',
      headers,
      body: JSON.stringify(checkoutBody()),
    });
    const c = expectValid(CheckoutSchema, await created.json());
    await fetch(`${first.url}/v0.1/checkouts/${c.id}`, {
      method: 'PUT',
      headers,
      body: JSON.stringify(cardBody('4111111111111111')),
    });
    await first.close();
    const text = readFileSync(dataFile, 'utf8');
    assert.ok(!text.includes('4111111111111111'));
    assert.ok(!text.includes('"cvv"'));

    const second = await createSandbox({ dataFile });
    try {
      const res = await fetch(`${second.url}/v0.1/checkouts/${c.id}`, { headers });
      const got = expectValid(CheckoutSchema, await res.json());
      assert.equal(got.status, 'PAID');
      assert.equal(got.transactions?.length, 1);
      assert.equal(got.transactions?.[0]?.status, 'SUCCESSFUL');
    } finally {
      await second.close();
    }
  });

  test('a corrupt data file stops the start with a clear message', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sandbox-data-'));
    dirs.push(dir);
    const dataFile = join(dir, 'state.json');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(dataFile, '{oops');
    await assert.rejects(createSandbox({ dataFile }), /not valid JSON/);
  });
});
