import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  createProviderClient,
  ProviderError,
  parseProviderError,
} from '../../../src/server/index.ts';
import { cardBody } from '../support/cards.ts';
import { checkoutAnswer, scriptedServers, sendJson } from './helpers.ts';

const apiKey = 'sk_test_client_secret_123';
const checkout = checkoutAnswer;

const server = scriptedServers();

describe('base URL', () => {
  test('plain http is refused unless the host is loopback', () => {
    for (const baseUrl of [
      'http://api.example.com',
      'http://127.example.com',
      'http://10.0.0.1:4010',
      'ftp://127.0.0.1',
      'http://user:pass@127.0.0.1',
      'not a url',
    ]) {
      assert.throws(() => createProviderClient({ baseUrl, apiKey }), TypeError, baseUrl);
    }
    for (const baseUrl of [
      'https://api.example.com',
      'http://127.0.0.1:4010',
      'http://127.1.2.3',
      'http://localhost:4010',
      'http://[::1]:4010',
    ]) {
      assert.doesNotThrow(() => createProviderClient({ baseUrl, apiKey }), baseUrl);
    }
  });

  test('the refusal message does not contain the key', () => {
    assert.throws(
      () => createProviderClient({ baseUrl: 'http://api.example.com', apiKey }),
      (error: Error) => !error.message.includes(apiKey),
    );
  });
});

describe('requests', () => {
  test('the key travels only in the Authorization header; ids and queries are encoded', async () => {
    const s = await server((_req, res) => sendJson(res, 200, [checkout('PENDING')]));
    const client = createProviderClient({ baseUrl: s.url, apiKey });
    await client.checkouts.list({ checkout_reference: 'a b/c' });
    await client.transactions
      .history('MTEST', { statuses: ['SUCCESSFUL', 'FAILED'] })
      .catch(() => {});
    await client.checkouts.get('../me').catch(() => {});
    const [list, history, traversal] = s.seen;
    assert.equal(list?.url, '/v0.1/checkouts?checkout_reference=a+b%2Fc');
    assert.equal(list?.headers.authorization, `Bearer ${apiKey}`);
    assert.equal(
      history?.url,
      '/v2.1/merchants/MTEST/transactions/history?statuses=SUCCESSFUL&statuses=FAILED',
    );
    assert.equal(traversal?.url, '/v0.1/checkouts/..%2Fme');
    for (const seen of s.seen) {
      assert.ok(!seen.url.includes(apiKey));
      assert.ok(!seen.body.includes(apiKey));
    }
  });

  test('answers are validated: a malformed 200 is an invalid_response error', async () => {
    const s = await server((_req, res) => sendJson(res, 200, { id: 42, status: 'WEIRD' }));
    const client = createProviderClient({ baseUrl: s.url, apiKey });
    await assert.rejects(client.checkouts.get('co_1'), (error: ProviderError) => {
      assert.ok(error instanceof ProviderError);
      assert.equal(error.kind, 'invalid_response');
      assert.equal(error.status, 502);
      return true;
    });
  });

  test('a call that gets no answer fails after timeoutMs', async () => {
    const s = await server(() => {
      // Never answers.
    });
    const client = createProviderClient({ baseUrl: s.url, apiKey, timeoutMs: 150, retries: 0 });
    const started = Date.now();
    await assert.rejects(client.checkouts.get('co_1'), (error: ProviderError) => {
      assert.equal(error.kind, 'timeout');
      assert.equal(error.status, 504);
      assert.equal(error.retryable, true);
      assert.ok(!error.message.includes(apiKey));
      return true;
    });
    const took = Date.now() - started;
    assert.ok(took >= 140 && took < 2000, `took ${took} ms`);
  });
});

describe('retries', () => {
  test('a GET is retried on 5xx until it succeeds', async () => {
    let calls = 0;
    const s = await server((_req, res) => {
      calls += 1;
      if (calls < 3) sendJson(res, 503, { error_code: 'UNAVAILABLE', message: 'try later' });
      else sendJson(res, 200, checkout('PAID'));
    });
    const client = createProviderClient({ baseUrl: s.url, apiKey, retries: 2, retryDelayMs: 5 });
    const result = await client.checkouts.get('co_1');
    assert.equal(result.status, 'PAID');
    assert.equal(s.seen.length, 3);
  });

  test('GET retries are bounded', async () => {
    const s = await server((_req, res) => sendJson(res, 500, { error_code: 'BOOM', message: 'x' }));
    const client = createProviderClient({ baseUrl: s.url, apiKey, retries: 2, retryDelayMs: 5 });
    await assert.rejects(client.checkouts.get('co_1'), { errorCode: 'BOOM', status: 500 });
    assert.equal(s.seen.length, 3);
  });

  test('a GET is retried after a network error', async () => {
    const s = await server((_req, res) => sendJson(res, 200, checkout('PENDING')));
    let attempts = 0;
    const flaky: typeof fetch = async (input, init) => {
      attempts += 1;
      if (attempts === 1) throw new TypeError('fetch failed');
      return fetch(input, init);
    };
    const client = createProviderClient({ baseUrl: s.url, apiKey, retryDelayMs: 5, fetch: flaky });
    assert.equal((await client.checkouts.get('co_1')).status, 'PENDING');
    assert.equal(attempts, 2);
  });

  test('a 4xx is not retried', async () => {
    const s = await server((_req, res) =>
      sendJson(res, 404, { error_code: 'NOT_FOUND', message: 'Resource not found' }),
    );
    const client = createProviderClient({ baseUrl: s.url, apiKey, retryDelayMs: 5 });
    await assert.rejects(client.checkouts.get('nope'), { status: 404, errorCode: 'NOT_FOUND' });
    assert.equal(s.seen.length, 1);
  });
});

describe('processing a checkout is never retried blindly', () => {
  const card = cardBody('4200000000000091');

  test('a 5xx on PUT with an untouched checkout: one PUT, a read, and a retryable error', async () => {
    const s = await server((req, res) => {
      if (req.method === 'PUT')
        sendJson(res, 502, { error_code: 'BAD_GATEWAY', message: 'upstream' });
      else sendJson(res, 200, checkout('PENDING', { transactions: [] }));
    });
    const client = createProviderClient({ baseUrl: s.url, apiKey, retryDelayMs: 5 });
    await assert.rejects(client.checkouts.process('co_1', card), (error: ProviderError) => {
      assert.equal(error.retryable, true);
      assert.match(error.message, /processing again is safe/);
      return true;
    });
    assert.deepEqual(
      s.seen.map((r) => r.method),
      ['PUT', 'GET'],
    );
  });

  test('a timed-out PUT that did charge is answered from the checkout read back', async () => {
    let put = 0;
    const s = await server((req, res) => {
      if (req.method === 'PUT') {
        put += 1;
        return; // the answer is lost
      }
      sendJson(res, 200, checkout('PAID', { transactions: [{ id: 't1', status: 'SUCCESSFUL' }] }));
    });
    const client = createProviderClient({ baseUrl: s.url, apiKey, timeoutMs: 150 });
    const result = await client.checkouts.process('co_1', card);
    assert.equal(put, 1);
    assert.equal(result.kind, 'checkout');
    assert.ok(result.kind === 'checkout' && result.recovered && result.checkout.status === 'PAID');
  });

  test('when the read back fails too, the outcome is unknown and not retryable', async () => {
    const s = await server((req, res) => {
      if (req.method === 'PUT') return;
      sendJson(res, 503, { error_code: 'DOWN', message: 'down' });
    });
    const client = createProviderClient({
      baseUrl: s.url,
      apiKey,
      timeoutMs: 100,
      retries: 1,
      retryDelayMs: 5,
    });
    await assert.rejects(client.checkouts.process('co_1', card), {
      errorCode: 'PROCESS_OUTCOME_UNKNOWN',
      retryable: false,
    });
    assert.equal(s.seen.filter((r) => r.method === 'PUT').length, 1);
  });

  test('a provider 4xx on PUT is passed on without a read', async () => {
    const s = await server((_req, res) =>
      sendJson(res, 409, {
        error_code: 'CHECKOUT_PROCESSED',
        message: 'Checkout is already processed',
      }),
    );
    const client = createProviderClient({ baseUrl: s.url, apiKey });
    await assert.rejects(client.checkouts.process('co_1', card), {
      status: 409,
      errorCode: 'CHECKOUT_PROCESSED',
    });
    assert.equal(s.seen.length, 1);
  });

  test('a 202 answers the next step', async () => {
    const nextStep = {
      url: 'https://acs.example/3ds',
      method: 'POST',
      payload: { PaReq: 'x', MD: 'y', TermUrl: 'https://p.example/t' },
    };
    const s = await server((_req, res) => sendJson(res, 202, { next_step: nextStep }));
    const client = createProviderClient({ baseUrl: s.url, apiKey });
    const result = await client.checkouts.process('co_1', card);
    assert.equal(result.kind, 'next_step');
    assert.ok(result.kind === 'next_step' && result.next_step.url === nextStep.url);
  });
});

describe('ProviderError', () => {
  test('the flat shape gives status, code, message and param', async () => {
    const s = await server((_req, res) =>
      sendJson(res, 400, {
        error_code: 'INVALID',
        message: 'Validation error',
        param: 'card.expiry_year',
      }),
    );
    const client = createProviderClient({ baseUrl: s.url, apiKey });
    await assert.rejects(
      client.checkouts.create({
        checkout_reference: 'r',
        amount: 1,
        currency: 'EUR',
        merchant_code: 'M',
      }),
      (error: ProviderError) => {
        assert.ok(error instanceof ProviderError);
        assert.equal(error.kind, 'http');
        assert.equal(error.status, 400);
        assert.equal(error.errorCode, 'INVALID');
        assert.equal(error.message, 'Validation error');
        assert.equal(error.param, 'card.expiry_year');
        assert.equal(error.retryable, false);
        return true;
      },
    );
  });

  test('every documented error body shape is understood', () => {
    const list = parseProviderError(400, [
      { error_code: 'INVALID', message: 'Validation error', param: 'card.name' },
      { error_code: 'INVALID', message: 'Validation error', param: 'card.number' },
    ]);
    assert.deepEqual([list.errorCode, list.param], ['INVALID', 'card.name']);

    const auth = parseProviderError(401, {
      error_code: 'NOT_AUTHORIZED',
      error_message: 'invalid access token',
    });
    assert.deepEqual([auth.errorCode, auth.message], ['NOT_AUTHORIZED', 'invalid access token']);

    const reader = parseProviderError(422, {
      errors: { detail: 'The device is offline.', type: 'READER_OFFLINE' },
    });
    assert.deepEqual(
      [reader.errorCode, reader.message],
      ['READER_OFFLINE', 'The device is offline.'],
    );

    const fields = parseProviderError(422, { errors: { total_amount: ['is too low'] } });
    assert.deepEqual(
      [fields.errorCode, fields.param, fields.message],
      ['INVALID', 'total_amount', 'total_amount is too low'],
    );

    const problem = parseProviderError(400, {
      title: 'Bad Request',
      details: 'amount is invalid',
      status: 400,
    });
    assert.equal(problem.message, 'amount is invalid');

    const empty = parseProviderError(404, undefined);
    assert.deepEqual([empty.errorCode, empty.status], ['NOT_FOUND', 404]);
    assert.equal(parseProviderError(503, 'gateway html').retryable, true);
  });
});
