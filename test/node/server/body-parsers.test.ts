// The handler behind the body parsers almost every Express app mounts for all its routes:
// `app.use(express.json())` and `app.use(express.urlencoded())` read the request's stream
// before the handler sees it and leave the result in req.body. toNodeListener takes that
// body: create, pay and the provider's webhook work as without the parsers, the app's own
// routes keep their parsed bodies, and a middleware that eats the body and leaves nothing
// is named rather than answered with "The request body is empty".
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { after, before, describe, test } from 'node:test';
import express from 'express';
import type { Sandbox } from '../../../src/sandbox/index.ts';
import { toNodeListener } from '../../../src/server/index.ts';
import { type Listening, listenLoopback } from '../support/loopback.ts';
import { type Harness, makeHandler, ORIGIN, startSandbox } from './fixtures.ts';
import { payWithCard } from './pay-through.ts';

let sb: Sandbox;
before(async () => {
  sb = await startSandbox();
});
after(() => sb.close());

const json = { origin: ORIGIN, 'content-type': 'application/json' };

describe('Express 5 with express.json() and express.urlencoded() on every route', () => {
  let server: Listening;
  let h: Harness;
  before(async () => {
    h = makeHandler(sb);
    const app = express();
    app.use(express.json());
    app.use(express.urlencoded());
    app.post('/orders', (req, res) => {
      res.json({ received: req.body });
    });
    app.all('/payments/*splat', toNodeListener(h.handle));
    server = await listenLoopback(createServer(app));
  });
  after(() => server.close());

  test('create, pay and the provider’s webhook', async () => {
    await payWithCard(server.url, h);
    // The app's own routes keep their parsed bodies, JSON and form alike.
    const order = await fetch(`${server.url}/orders`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'sku=tea&qty=2',
    });
    assert.deepEqual(await order.json(), { received: { sku: 'tea', qty: '2' } });
  });

  test('bad bodies are refused as without the parsers, naming the field', async () => {
    const empty = await fetch(`${server.url}/payments/checkouts`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({}),
    });
    assert.equal(empty.status, 400);
    assert.equal(((await empty.json()) as { error: { field: string } }).error.field, 'order');
    // A form, parsed by urlencoded(), is still not JSON to the handler.
    const form = await fetch(`${server.url}/payments/checkouts`, {
      method: 'POST',
      headers: { origin: ORIGIN, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'order=tea',
    });
    assert.equal(form.status, 415);
    assert.equal(((await form.json()) as { error: { field: string } }).error.field, 'content-type');
  });
});

describe('a middleware that reads the body and leaves no req.body', () => {
  let server: Listening;
  before(async () => {
    const app = express();
    app.use((req, _res, next) => {
      req.on('data', () => {});
      req.on('end', () => next());
    });
    app.all('/payments/*splat', toNodeListener(makeHandler(sb).handle));
    server = await listenLoopback(createServer(app));
  });
  after(() => server.close());

  test('is named, with what to change, on the answer and on the console', async (t) => {
    const errors = t.mock.method(console, 'error', () => {});
    const res = await fetch(`${server.url}/payments/checkouts`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ order: { sku: 'tea' } }),
    });
    assert.equal(res.status, 500);
    const { error } = (await res.json()) as { error: { message: string } };
    assert.match(error.message, /read by a middleware before the payment handler/);
    assert.match(String(errors.mock.calls[0]?.arguments[0]), /mount the payment handler before/);
  });
});
