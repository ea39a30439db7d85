// The handler in a Koa 3 app, behind the body parser almost every Koa app mounts for all its
// routes (koa-bodyparser, @koa/bodyparser): the parser reads the request's stream and leaves
// the body on Koa's request (`ctx.request.body`, its text as `ctx.request.rawBody`), not on
// Node's, so `toNodeListener(payments)(ctx.req, ctx.res)` finds the stream empty. The
// listener is a Koa middleware as it is: it takes Koa's context, with that body and the whole
// path (koa-mount cuts its prefix off `req.url`; Koa keeps it in `ctx.originalUrl`), and sets
// `ctx.respond = false` so that Koa sends nothing of its own. Koa is not among the
// repository's dependencies: `koaApp` builds the context and answers as Koa 3 does, with
// stand-ins for the parser and koa-mount that do what theirs do to the request.
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { after, before, describe, test } from 'node:test';
import type { Sandbox } from '../../../src/sandbox/index.ts';
import { toNodeListener } from '../../../src/server/index.ts';
import { type Listening, listenLoopback } from '../support/loopback.ts';
import { makeHandler, ORIGIN, startSandbox } from './fixtures.ts';
import { payWithCard } from './pay-through.ts';

interface Context {
  req: IncomingMessage;
  res: ServerResponse;
  request: { body?: unknown; rawBody?: string };
  originalUrl: string;
  respond?: boolean;
  status?: number;
  body?: unknown;
}
type Middleware = (ctx: Context, next: () => Promise<void>) => unknown;

/** Koa 3's `app.callback()`: the middleware in order, then its answer unless `respond` is false. */
function koaApp(...middleware: Middleware[]) {
  return async (req: IncomingMessage, res: ServerResponse) => {
    const ctx: Context = { req, res, request: {}, originalUrl: req.url ?? '/' };
    const run = async (i: number): Promise<void> => {
      await middleware[i]?.(ctx, () => run(i + 1));
    };
    await run(0);
    if (ctx.respond === false) return;
    // Nothing set the body: Koa's 404, as every unmatched route gets.
    const body = ctx.body === undefined ? 'Not Found' : JSON.stringify(ctx.body);
    res.writeHead(ctx.body === undefined ? 404 : (ctx.status ?? 200)).end(body);
  };
}

/** koa-bodyparser: a JSON body read whole, its text kept as `rawBody`, `{}` when empty. */
const bodyParser: Middleware = async (ctx, next) => {
  if (ctx.req.headers['content-type']?.startsWith('application/json')) {
    let text = '';
    for await (const chunk of ctx.req) text += chunk;
    ctx.request.rawBody = text;
    ctx.request.body = text === '' ? {} : JSON.parse(text);
  }
  await next();
};

/** A route for `prefix/*` (@koa/router's `router.all('/payments/{*path}', ...)`). */
const route =
  (prefix: string, handle: Middleware): Middleware =>
  (ctx, next) =>
    ctx.req.url?.startsWith(`${prefix}/`) ? handle(ctx, next) : next();

/** koa-mount: `prefix` cut off the path (so off `req.url`) while the mounted middleware runs. */
const mount =
  (prefix: string, handle: Middleware): Middleware =>
  async (ctx, next) => {
    const whole = ctx.req.url ?? '/';
    if (!whole.startsWith(`${prefix}/`)) return next();
    ctx.req.url = whole.slice(prefix.length);
    try {
      await handle(ctx, next);
    } finally {
      ctx.req.url = whole;
    }
  };

let sb: Sandbox;
before(async () => {
  sb = await startSandbox();
});
after(() => sb.close());

for (const [name, place] of [
  ['router.all("/payments/{*path}", toNodeListener(payments))', route],
  ['app.use(mount("/payments", toNodeListener(payments)))', mount],
] as const) {
  describe(`Koa 3 with a body parser on every route, ${name}`, () => {
    let server: Listening;
    let h: ReturnType<typeof makeHandler>;
    before(async () => {
      h = makeHandler(sb);
      const orders: Middleware = (ctx, next) => {
        if (ctx.req.url !== '/orders') return next();
        ctx.body = { received: ctx.request.body };
      };
      const listener = toNodeListener(h.handle) as Middleware;
      server = await listenLoopback(
        createServer(koaApp(bodyParser, orders, place('/payments', listener))),
      );
    });
    after(() => server.close());

    test('create, pay and the provider’s webhook; the app’s own routes keep their bodies', async () => {
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
    const nodeOnly: Middleware = (ctx) => {
      ctx.respond = false;
      listener(ctx.req, ctx.res);
    };
    server = await listenLoopback(createServer(koaApp(bodyParser, route('/payments', nodeOnly))));
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
    assert.match(error.message, /in Koa, ctx itself, not ctx\.req/);
    assert.match(String(errors.mock.calls[0]?.arguments[0]), /in Koa, ctx itself/);
  });
});
