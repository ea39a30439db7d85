// The handler in a Koa 3 app, behind the body parser almost every Koa app mounts for all its
// routes (koa-bodyparser, @koa/bodyparser): the parser reads the request's stream and leaves
// the body on Koa's request (`ctx.request.body`, its text as `ctx.request.rawBody`), not on
// Node's, so `toNodeListener(payments)(ctx.req, ctx.res)` finds the stream empty. The
// listener is a Koa middleware as it is: it takes Koa's context, with that body and the whole
// path (koa-mount cuts its prefix off `req.url`; Koa keeps it in `ctx.originalUrl`), and sets
// `ctx.respond = false` so that Koa sends nothing of its own. Real Koa, parsers, router and
// mount, as docs/server.md's recipe has them.
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { bodyParser as koaBodyParser } from '@koa/bodyparser';
import Router from '@koa/router';
import Koa from 'koa';
import bodyParser from 'koa-bodyparser';
import mount from 'koa-mount';
import type { Sandbox } from '../../../src/sandbox/index.ts';
import { toNodeListener } from '../../../src/server/index.ts';
import { type Listening, listenLoopback } from '../support/loopback.ts';
import { makeHandler, ORIGIN, startSandbox } from './fixtures.ts';
import { payWithCard } from './pay-through.ts';

let sb: Sandbox;
before(async () => {
  sb = await startSandbox();
});
after(() => sb.close());

/** What the test needs of a Koa app, whatever its context's type. */
interface App {
  silent: boolean;
  callback(): (req: IncomingMessage, res: ServerResponse) => unknown;
}

/** Where the handler goes in the app: each way the recipe names, behind each parser. */
// The listener goes in as it is, no cast: the recipe type-checks as a merchant writes it.
const SETUPS: { name: string; app(payments: ReturnType<typeof toNodeListener>): App }[] = [
  {
    name: 'koa-bodyparser, router.all("/payments/{*path}", toNodeListener(payments))',
    app(payments) {
      const router = new Router();
      router.all('/payments/{*path}', payments);
      return new Koa().use(bodyParser()).use(orders).use(router.routes());
    },
  },
  {
    name: '@koa/bodyparser, app.use(mount("/payments", toNodeListener(payments)))',
    app(payments) {
      return new Koa().use(koaBodyParser()).use(orders).use(mount('/payments', payments));
    },
  },
];

/** One of the shop's own routes, whose parsed body the handler must leave to it. */
const orders: Koa.Middleware = (ctx, next) => {
  if (ctx.path !== '/orders') return next();
  ctx.body = { received: (ctx.request as { body?: unknown }).body };
};

async function serve(app: App): Promise<Listening> {
  // Koa logs what a middleware throws; none should, and the test reads the answers.
  app.silent = true;
  return listenLoopback(createServer(app.callback()));
}

for (const setup of SETUPS) {
  describe(`Koa 3 with ${setup.name}`, () => {
    let server: Listening;
    let h: ReturnType<typeof makeHandler>;
    before(async () => {
      h = makeHandler(sb);
      server = await serve(setup.app(toNodeListener(h.handle)));
    });
    after(() => server.close());

    test('create, pay and the provider’s webhook; the app’s own routes keep their bodies', async () => {
      // The listener loads @hono/node-server on its first request: the payment comes after
      // it, through a mount that cut the path off by then.
      assert.equal((await fetch(`${server.url}/payments/payment-methods`)).status, 200);
      await payWithCard(server.url, h);
      const order = await fetch(`${server.url}/orders`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ sku: 'tea' }),
      });
      assert.deepEqual(await order.json(), { received: { sku: 'tea' } });
    });

    test('the handler’s own 404 and 405, not Koa’s', async () => {
      const unknown = await fetch(`${server.url}/payments/nope`);
      assert.equal(unknown.status, 404);
      assert.equal(((await unknown.json()) as { error: { code: string } }).error.code, 'NOT_FOUND');
      const wrong = await fetch(`${server.url}/payments/webhook`, { headers: { origin: ORIGIN } });
      assert.equal(wrong.status, 405);
    });
  });
}

describe('Koa 3 handing the listener ctx.req and ctx.res behind the body parser', () => {
  let server: Listening;
  before(async () => {
    const listener = toNodeListener(makeHandler(sb).handle);
    const router = new Router();
    router.all('/payments/{*path}', (ctx) => {
      ctx.respond = false;
      listener(ctx.req, ctx.res);
    });
    server = await serve(new Koa().use(bodyParser()).use(router.routes()));
  });
  after(() => server.close());

  test('is told to hand it Koa’s context', async (t) => {
    const errors = t.mock.method(console, 'error', () => {});
    const res = await fetch(`${server.url}/payments/checkouts`, {
      method: 'POST',
      headers: { origin: ORIGIN, 'content-type': 'application/json' },
      body: JSON.stringify({ order: { sku: 'tea' } }),
    });
    assert.equal(res.status, 500);
    const { error } = (await res.json()) as { error: { message: string } };
    assert.match(error.message, /in Koa and AdonisJS, ctx itself, not ctx\.req/);
    assert.match(String(errors.mock.calls[0]?.arguments[0]), /in Koa and AdonisJS, ctx itself/);
  });
});
