// The handler in a Fastify 5 app, on loopback. Fastify reads every JSON (and text) body
// before its routes and keeps it on its own request, `request.body`, leaving Node's
// (`request.raw`) read to its end; and it sends the route's return value unless the reply is
// hijacked. toNodeListener takes Fastify's request and reply as they are: the body Fastify
// parsed goes to the handler, and the reply is hijacked. Handed `.raw` instead, the body is
// gone, and the answer says what to change.
import assert from 'node:assert/strict';
import { after, before, describe, type TestContext, test } from 'node:test';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Sandbox } from '../../../src/sandbox/index.ts';
import { toNodeListener } from '../../../src/server/index.ts';
import { type Harness, makeHandler, ORIGIN, startSandbox } from './fixtures.ts';
import { payWith3ds, payWithCard } from './pay-through.ts';

let sb: Sandbox;
before(async () => {
  sb = await startSandbox();
});
after(() => sb.close());

async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  assert.ok(address !== null && typeof address === 'object');
  return `http://127.0.0.1:${address.port}`;
}

/**
 * A checkout asked for through a mount that lost its body: a 500 whose message says `answered`,
 * and the console's error, once, says `told`.
 */
async function lostBodyNamed(t: TestContext, base: string, answered: RegExp, told: RegExp) {
  const errors = t.mock.method(console, 'error', () => {});
  const res = await fetch(`${base}/payments/checkouts`, {
    method: 'POST',
    headers: { origin: ORIGIN, 'content-type': 'application/json' },
    body: JSON.stringify({ order: { sku: 'tea' } }),
  });
  assert.equal(res.status, 500);
  const { error } = (await res.json()) as { error: { message: string } };
  assert.match(error.message, answered);
  assert.match(String(errors.mock.calls[0]?.arguments[0]), told);
}

describe("app.all('/payments/*', toNodeListener(payments)), Fastify's parsers on", () => {
  let app: FastifyInstance;
  let base: string;
  let h: Harness;
  before(async () => {
    h = makeHandler(sb);
    app = Fastify();
    app.post('/orders', async (request) => ({ received: request.body }));
    app.all('/payments/*', toNodeListener(h.handle));
    base = await listen(app);
  });
  after(() => app.close());

  test('a card, its webhook, a 3-D Secure card and the return', async () => {
    await payWithCard(base, h);
    await payWith3ds(base);
  });

  test('the app’s own routes keep their parsed bodies', async () => {
    const order = await fetch(`${base}/orders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"sku":"tea"}',
    });
    assert.deepEqual(await order.json(), { received: { sku: 'tea' } });
  });

  test('a text body Fastify read is still not JSON to the handler', async () => {
    const text = await fetch(`${base}/payments/checkouts`, {
      method: 'POST',
      headers: { origin: ORIGIN, 'content-type': 'text/plain' },
      body: '{"order":{"sku":"tea"}}',
    });
    assert.equal(text.status, 415);
    assert.equal(((await text.json()) as { error: { field: string } }).error.field, 'content-type');
  });
});

describe('Fastify’s request.raw and reply.raw handed to the listener', () => {
  let app: FastifyInstance;
  let base: string;
  before(async () => {
    const listener = toNodeListener(makeHandler(sb).handle);
    app = Fastify();
    app.all('/payments/*', (request, reply) => {
      reply.hijack();
      listener(request.raw, reply.raw);
    });
    base = await listen(app);
  });
  after(() => app.close());

  test('a body Fastify read is named, with what to change', async (t) => {
    await lostBodyNamed(
      t,
      base,
      /hand the listener Fastify's request and reply, not their \.raw/,
      /app\.all\('\/payments\/\*'/,
    );
  });
});

describe('a content type parser of the app that reads the body and hands nothing on', () => {
  let app: FastifyInstance;
  let base: string;
  before(async () => {
    app = Fastify();
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', (_request, payload, done) => {
      payload.resume();
      payload.on('end', () => done(null));
    });
    app.all('/payments/*', toNodeListener(makeHandler(sb).handle));
    base = await listen(app);
  });
  after(() => app.close());

  test('is named, with what to change', async (t) => {
    await lostBodyNamed(
      t,
      base,
      /a content type parser of the app read it without handing it on/,
      /call done\(null, body\)/,
    );
  });
});
