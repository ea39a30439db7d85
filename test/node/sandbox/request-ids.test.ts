// X-Request-Id on every sandbox answer (the caller's when it is a short token, else a new
// one), in the access log, and the request log behind GET /sandbox/requests: newest first,
// paths only, found by id, bounded to the last 1,000.

import assert from 'node:assert/strict';
import { type IncomingMessage, request } from 'node:http';
import { after, before, beforeEach, describe, test } from 'node:test';
import type { RequestJson } from '../../../src/sandbox/state/request-log.ts';
import { cardBody } from '../support/cards.ts';
import { checkoutBody, type Harness, startSandbox } from './helpers.ts';

let h: Harness;

function call(path: string, init: RequestInit & { requestId?: string } = {}) {
  const headers = new Headers(init.headers);
  headers.set('authorization', `Bearer ${h.sandbox.apiKey}`);
  if (init.requestId !== undefined) headers.set('x-request-id', init.requestId);
  return fetch(`${h.sandbox.url}${path}`, { ...init, headers });
}

async function requests(query = ''): Promise<RequestJson[]> {
  return (await h.api('GET', `/sandbox/requests${query}`)).body as RequestJson[];
}

describe('request ids', () => {
  before(async () => {
    h = await startSandbox();
  });
  after(() => h.sandbox.close());
  beforeEach(async () => {
    await h.api('POST', '/sandbox/reset');
  });

  test("the caller's short id is echoed, logged and found through /sandbox/requests", async () => {
    const res = await call('/v0.1/checkouts?checkout_reference=secret-ref', {
      requestId: 'shop-42.a:b_c-d',
    });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('x-request-id'), 'shop-42.a:b_c-d');
    assert.ok(h.logs.some((l) => /^GET \/v0\.1\/checkouts 200 .*ms shop-42\.a:b_c-d$/.test(l)));
    const found = await requests('?request_id=shop-42.a:b_c-d');
    assert.equal(found.length, 1);
    const [r] = found;
    assert.equal(r?.method, 'GET');
    // The path only: the query string stays out, as do keys.
    assert.equal(r?.path, '/v0.1/checkouts');
    assert.equal(r?.status, 200);
    assert.ok(r!.durationMs >= 0);
    assert.ok(Math.abs(Date.parse(r!.at) - Date.now()) < 60_000);
    assert.ok(!JSON.stringify(await requests()).includes('secret-ref'));
  });

  test('a missing, long or unsafe id is replaced by a new one', async () => {
    const seen = new Set<string>();
    for (const requestId of [undefined, 'x'.repeat(65), 'a b', 'evil\u00e9', '']) {
      const res = await call('/v0.1/checkouts', requestId === undefined ? {} : { requestId });
      const id = res.headers.get('x-request-id') ?? '';
      assert.match(id, /^[0-9a-z]+-[0-9a-z]+$/);
      assert.notEqual(id, requestId);
      seen.add(id);
    }
    assert.equal(seen.size, 5, 'every new id is different');
  });

  test('several X-Request-Id headers are replaced by one new id', async () => {
    // fetch joins repeated headers; node:http sends them as given (a flat name/value list).
    const res = await new Promise<IncomingMessage>((resolve, reject) => {
      const { host } = new URL(h.sandbox.url);
      const headers = ['Host', host, 'Authorization', `Bearer ${h.sandbox.apiKey}`];
      headers.push('x-request-id', 'one', 'X-Request-Id', 'two');
      const req = request(`${h.sandbox.url}/v0.1/checkouts`, { headers }, resolve);
      req.on('error', reject);
      req.end();
    });
    res.resume();
    assert.equal(res.statusCode, 200);
    const id = String(res.headers['x-request-id']);
    assert.match(id, /^[0-9a-z]+-[0-9a-z]+$/);
    assert.equal((await requests(`?request_id=${id}`)).length, 1);
  });

  test('without a socket (sandbox.handle) the answer carries an id too', async () => {
    const res = await h.sandbox.handle(
      new Request(`${h.sandbox.url}/v0.1/checkouts`, {
        headers: { authorization: `Bearer ${h.sandbox.apiKey}`, 'x-request-id': 'in-process' },
      }),
    );
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('x-request-id'), 'in-process');
    const fresh = await h.sandbox.handle(new Request(`${h.sandbox.url}/v0.1/nothing`));
    assert.match(fresh.headers.get('x-request-id') ?? '', /^[0-9a-z]+-[0-9a-z]+$/);
  });

  test('errors, 404s, pages and control routes carry an id too', async () => {
    const created = await call('/v0.1/checkouts', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(checkoutBody()),
      requestId: 'create-1',
    });
    const { id } = (await created.json()) as { id: string };
    const answers = [
      await call('/v0.1/nothing-here', { requestId: 'r404' }),
      await call('/v0.1/checkouts', { method: 'POST', body: '{', requestId: 'r400' }),
      await fetch(`${h.sandbox.url}/v0.1/checkouts`, { headers: { 'x-request-id': 'r401' } }),
      await call('/sandbox/reset', { method: 'POST', requestId: 'r204' }),
      await call(`/v0.1/checkouts/${id}`, { method: 'HEAD', requestId: 'rhead' }),
    ];
    assert.deepEqual(
      answers.map((r) => [r.status, r.headers.get('x-request-id')]),
      [
        [404, 'r404'],
        [400, 'r400'],
        [401, 'r401'],
        [204, 'r204'],
        [404, 'rhead'],
      ],
    );
    // Newest first; the reset cleared what came before it. A HEAD is answered, and logged, as
    // the GET it mirrors.
    assert.deepEqual(
      (await requests()).map((r) => [r.request_id, r.method, r.status]),
      [
        ['rhead', 'GET', 404],
        ['r204', 'POST', 204],
      ],
    );
  });

  test("a caller's traceparent is kept beside its request, so its trace finds the request", async () => {
    const traceparent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
    await call('/v0.1/checkouts', { requestId: 'traced', headers: { traceparent } });
    await call('/v0.1/checkouts', { requestId: 'untraced' });
    const [traced] = await requests('?request_id=traced');
    assert.equal(traced?.traceparent, traceparent);
    const [untraced] = await requests('?request_id=untraced');
    assert.ok(untraced !== undefined && !('traceparent' in untraced), 'no trace, no field');
    await call('/v0.1/checkouts', {
      requestId: 'long',
      headers: { traceparent: 'x'.repeat(4_000) },
    });
    const [long] = await requests('?request_id=long');
    assert.equal(long?.traceparent?.length, 128, "a caller's header is kept, but bounded");
  });

  test('a dropped connection is recorded with status 0', async () => {
    await h.api('POST', '/sandbox/faults', { path: '/v0.1/checkouts', kind: 'drop' });
    await assert.rejects(call('/v0.1/checkouts', { requestId: 'dropped-1' }));
    const [r] = await requests('?request_id=dropped-1');
    assert.equal(r?.status, 0);
  });

  test("the cockpit's own reads stay out of the log; its changes are in it", async () => {
    await h.api('GET', '/sandbox/requests');
    await h.api('GET', '/sandbox/overview');
    await h.api('GET', '/sandbox/webhook-deliveries');
    await h.api('GET', '/sandbox/clock');
    await h.api('POST', '/sandbox/clock', { advanceMs: 1000 });
    assert.deepEqual(
      (await requests()).map((r) => `${r.method} ${r.path}`),
      ['POST /sandbox/clock', 'POST /sandbox/reset'],
    );
  });

  test('the log keeps the last 1,000 requests', async () => {
    const created = await h.api('POST', '/v0.1/checkouts', checkoutBody());
    const { id } = created.body as { id: string };
    await h.api('PUT', `/v0.1/checkouts/${id}`, cardBody('4200000000000091'));
    for (let i = 0; i < 1_010; i += 10) {
      await Promise.all(
        Array.from({ length: 10 }, (_, k) =>
          call(`/v0.1/checkouts/${id}`, { requestId: `n${i + k}` }),
        ),
      );
    }
    const all = await requests();
    assert.equal(all.length, 1_000);
    assert.ok(all.every((r) => r.request_id.startsWith('n')));
    assert.equal((await requests('?request_id=n1009')).length, 1);
    assert.equal((await requests('?request_id=n5')).length, 0, 'the oldest are gone');
  });

  test('a bad request_id filter is 400 naming it; the log needs the key', async () => {
    h.expectError(
      await h.api('GET', '/sandbox/requests?request_id=a%20b'),
      400,
      'INVALID',
      'request_id',
    );
    h.expectError(await h.api('GET', '/sandbox/requests', undefined, null), 401, 'NOT_AUTHORIZED');
  });
});
