// The handler in a hapi 21 app, on loopback. hapi reads every route's body before its
// handler (`request.payload`, parsed by its content type), leaving Node's request
// (`request.raw.req`) read to its end, and answers with the handler's return value.
// toNodeListener is a hapi route handler as it is: it takes hapi's request with the payload
// hapi read, writes its answer to Node's response, and returns `h.abandon` so that hapi sends
// nothing of its own. Handed `request.raw.req` and `.res` instead, the body is gone, and the
// answer says what to change.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import Hapi from '@hapi/hapi';
import type { Sandbox } from '../../../src/sandbox/index.ts';
import { toNodeListener } from '../../../src/server/index.ts';
import { type Harness, makeHandler, ORIGIN, startSandbox } from './fixtures.ts';
import { payWith3ds, payWithCard } from './pay-through.ts';

let sb: Sandbox;
before(async () => {
  sb = await startSandbox();
});
after(() => sb.close());

const json = { origin: ORIGIN, 'content-type': 'application/json' };

/** The recipe as a merchant writes it: the listener as hapi's handler, no cast. */
async function shop(h: Harness): Promise<Hapi.Server> {
  const server = Hapi.server({ port: 0, host: '127.0.0.1' });
  server.route({
    method: ['GET', 'POST', 'PUT'],
    path: '/payments/{path*}',
    handler: toNodeListener(h.handle),
  });
  // The shop's own catch-all page route: hapi routes GET here only for what the handler lacks.
  server.route({ method: 'GET', path: '/{page*}', handler: () => 'shop' });
  server.route({
    method: 'POST',
    path: '/orders',
    handler: (request) => ({ received: request.payload }),
  });
  await server.start();
  return server;
}

describe("server.route({ method: ['GET', 'POST', 'PUT'], path: '/payments/{path*}', handler: toNodeListener(payments) })", () => {
  let server: Hapi.Server;
  let h: Harness;
  before(async () => {
    h = makeHandler(sb);
    server = await shop(h);
  });
  after(() => server.stop());

  test('a card, its webhook, a 3-D Secure card and the return; the app’s own routes keep their bodies', async () => {
    await payWithCard(server.info.uri, h);
    await payWith3ds(server.info.uri);
    const order = await fetch(`${server.info.uri}/orders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"sku":"tea"}',
    });
    assert.deepEqual(await order.json(), { received: { sku: 'tea' } });
    const unknown = await fetch(`${server.info.uri}/payments/nope`);
    assert.equal(unknown.status, 404);
    assert.equal(((await unknown.json()) as { error: { code: string } }).error.code, 'NOT_FOUND');
  });
});

describe('hapi: the client’s address reaches the per-client limits', () => {
  let server: Hapi.Server;
  let h: Harness;
  before(async () => {
    h = makeHandler(sb, { rateLimit: { checkoutsPerClient: { limit: 1 } } });
    server = await shop(h);
  });
  after(() => server.stop());

  test('a second checkout from 127.0.0.1 is over a limit of one', async () => {
    const create = () =>
      fetch(`${server.info.uri}/payments/checkouts`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ order: { sku: 'tea' } }),
      });
    assert.equal((await create()).status, 201);
    const second = await create();
    assert.equal(second.status, 429, await second.clone().text());
    assert.ok(!h.logs.some((line) => line.includes('client address of a request is unknown')));
  });
});

describe('hapi’s request.raw.req and .res handed to the listener', () => {
  let server: Hapi.Server;
  before(async () => {
    const listener = toNodeListener(makeHandler(sb).handle);
    server = Hapi.server({ port: 0, host: '127.0.0.1' });
    server.route({
      method: 'POST',
      path: '/payments/{path*}',
      handler: (request, h) => {
        listener(request.raw.req, request.raw.res);
        return h.abandon;
      },
    });
    await server.start();
  });
  after(() => server.stop());

  test('a body hapi read is named, with what to change', async (t) => {
    const errors = t.mock.method(console, 'error', () => {});
    const res = await fetch(`${server.info.uri}/payments/checkouts`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ order: { sku: 'tea' } }),
    });
    assert.equal(res.status, 500);
    const { error } = (await res.json()) as { error: { message: string } };
    assert.match(error.message, /in hapi, request and h themselves/);
    assert.match(String(errors.mock.calls[0]?.arguments[0]), /in hapi/);
  });
});
