// The handler mounted the ways docs/server.md shows, in the real libraries, on loopback:
// in an Express app through toNodeListener (a route, or app.use), and in a Hono app
// (served by @hono/node-server) with hono/mount. A browser's create, pay and confirm go through each, and the rest of
// the host app keeps working around the mount.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { serve } from '@hono/node-server';
import express from 'express';
import { Hono } from 'hono';
import { mount } from 'hono/mount';
import type { Sandbox } from '../../../src/sandbox/index.ts';
import { toNodeListener } from '../../../src/server/index.ts';
import { cardBody } from '../support/cards.ts';
import { type Listening, listenLoopback } from '../support/loopback.ts';
import { makeHandler, ORIGIN, startSandbox } from './fixtures.ts';

let sb: Sandbox;
before(async () => {
  sb = await startSandbox();
});
after(() => sb.close());

/** What the widget does: create, pay with a card that needs no challenge, confirm. */
async function payThrough(base: string): Promise<void> {
  const headers = { origin: ORIGIN, 'content-type': 'application/json' };
  const created = await fetch(`${base}/payments/checkouts`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ order: { sku: 'tea' } }),
  });
  assert.equal(created.status, 201);
  const { id } = (await created.json()) as { id: string };
  const paid = await fetch(`${base}/payments/checkouts/${id}`, {
    method: 'PUT',
    headers,
    body: JSON.stringify(cardBody('4200000000000091')),
  });
  assert.equal(paid.status, 200);
  assert.equal(((await paid.json()) as { status: string }).status, 'PAID');
  const confirmed = await fetch(`${base}/payments/checkouts/${id}`);
  assert.equal(((await confirmed.json()) as { status: string }).status, 'PAID');
  const unknown = await fetch(`${base}/payments/nope`);
  assert.equal(unknown.status, 404);
  assert.equal(((await unknown.json()) as { error: { code: string } }).error.code, 'NOT_FOUND');
}

describe('Express', () => {
  let server: Listening;
  before(async () => {
    const app = express();
    // Express's own body parsing stays on its own routes: the handler reads its raw body.
    app.post('/orders', express.json(), (req, res) => {
      res.json({ received: req.body });
    });
    app.all('/payments/*splat', toNodeListener(makeHandler(sb).handle));
    server = await listenLoopback(createServer(app));
  });
  after(() => server.close());

  test('create, pay and confirm through app.all("/payments/*splat", toNodeListener(payments))', async () => {
    await payThrough(server.url);
    const other = await fetch(`${server.url}/orders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"sku":"tea"}',
    });
    assert.deepEqual(await other.json(), { received: { sku: 'tea' } });
  });
});

describe('Express, app.use', () => {
  let server: Listening;
  before(async () => {
    const app = express();
    app.use(express.json());
    // Express cuts /payments off req.url here; the listener reads req.originalUrl.
    app.use('/payments', toNodeListener(makeHandler(sb).handle));
    server = await listenLoopback(createServer(app));
  });
  after(() => server.close());

  test('create, pay and confirm through app.use("/payments", toNodeListener(payments))', async () => {
    await payThrough(server.url);
  });
});

describe('Hono', () => {
  let url: string;
  let close: () => Promise<void>;
  before(async () => {
    const app = new Hono();
    app.get('/', (c) => c.text('shop'));
    app.all('/payments/*', mount(makeHandler(sb).handle, { replaceRequest: false }));
    const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
    await new Promise<void>((resolve) => server.once('listening', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        if ('closeAllConnections' in server) server.closeAllConnections();
      });
  });
  after(() => close());

  test('create, pay and confirm through app.all("/payments/*", mount(payments, ...))', async () => {
    await payThrough(url);
    assert.equal(await (await fetch(`${url}/`)).text(), 'shop');
  });
});
