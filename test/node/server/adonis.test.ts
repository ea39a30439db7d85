// The handler in an AdonisJS 7 app, on loopback: its router, with its body parser in front of
// every route as the starter kits' start/kernel.ts has it. The parser reads each JSON body
// before the route (Node's request is read to its end; the text is kept as
// `ctx.request.raw()`), and AdonisJS sends its own answer once the route's handler settles.
// toNodeListener is a route handler as it is: it takes AdonisJS's HttpContext, the body the
// parser read, and settles once the handler's answer is sent, so that AdonisJS sends none.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { AppFactory } from '@adonisjs/core/factories/app';
import { BodyParserMiddlewareFactory } from '@adonisjs/core/factories/bodyparser';
import { ServerFactory } from '@adonisjs/core/factories/http';
import type { HttpContext } from '@adonisjs/core/http';
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

const bodyParser = new BodyParserMiddlewareFactory().create();

/** The body parser as start/kernel.ts registers it: `router.use([...])`, for every route. */
class BodyParser {
  handle(ctx: HttpContext, next: () => Promise<void>) {
    return bodyParser.handle(ctx, next);
  }
}

/** An AdonisJS app on loopback whose router has `route` and the shop's own POST /orders. */
async function shop(route: (ctx: HttpContext) => unknown): Promise<{ base: string; http: Server }> {
  const application = new AppFactory().create(new URL('./', import.meta.url));
  await application.init();
  const app = new ServerFactory().merge({ app: application }).create();
  const router = app.getRouter();
  router.use([async () => ({ default: BodyParser })]);
  router.any('/payments/*', route);
  router.post('/orders', ({ request }) => ({ received: request.body() }));
  await app.boot();
  const http = createServer((req, res) => app.handle(req, res));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return { base: `http://127.0.0.1:${(http.address() as AddressInfo).port}`, http };
}

const close = (http: Server) => new Promise((resolve) => http.close(resolve));

describe("router.any('/payments/*', toNodeListener(payments)), behind AdonisJS's body parser", () => {
  let h: Harness;
  let base: string;
  let http: Server;
  before(async () => {
    h = makeHandler(sb, { rateLimit: { checkoutsPerClient: { limit: 4 } } });
    ({ base, http } = await shop(toNodeListener(h.handle)));
  });
  after(() => close(http));

  test('a card, its webhook, a 3-D Secure card and the return; the app’s own routes keep their bodies', async () => {
    await payWithCard(base, h);
    await payWith3ds(base);
    const order = await fetch(`${base}/orders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"sku":"tea"}',
    });
    assert.deepEqual(await order.json(), { received: { sku: 'tea' } });
    const methods = await fetch(`${base}/payments/payment-methods`);
    assert.equal(methods.status, 200);
    assert.ok('available_payment_methods' in ((await methods.json()) as object));
  });

  test('the client’s address reaches the per-client limits: the fifth checkout from 127.0.0.1 is over a limit of four', async () => {
    const create = () =>
      fetch(`${base}/payments/checkouts`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ order: { sku: 'tea' } }),
      });
    // payWithCard and payWith3ds made two (a third was refused 400 before any count).
    assert.equal((await create()).status, 201);
    assert.equal((await create()).status, 201);
    const over = await create();
    assert.equal(over.status, 429, await over.clone().text());
    assert.ok(!h.logs.some((line) => line.includes('client address of a request is unknown')));
  });
});

describe('AdonisJS’s ctx.request.request and ctx.response.response handed to the listener', () => {
  let base: string;
  let http: Server;
  before(async () => {
    const listener = toNodeListener(makeHandler(sb).handle);
    // The route returns at once and AdonisJS sends its empty answer; the listener runs after it,
    // as it does in a process where its first call still loads @hono/node-server.
    ({ base, http } = await shop(({ request, response }) => {
      response.response.once('finish', () => listener(request.request, response.response));
    }));
  });
  after(() => close(http));

  test('a body the parser read is named, with what to change, and the process lives on', async (t) => {
    let logged!: () => void;
    const said = new Promise<void>((resolve) => {
      logged = resolve;
    });
    const errors = t.mock.method(console, 'error', () => logged());
    const thrown: unknown[] = [];
    const keep = (error: unknown) => thrown.push(error);
    process.on('uncaughtException', keep);
    process.on('unhandledRejection', keep);
    t.after(() => {
      process.off('uncaughtException', keep);
      process.off('unhandledRejection', keep);
    });
    const res = await fetch(`${base}/payments/checkouts`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ order: { sku: 'tea' } }),
    });
    await res.arrayBuffer();
    await said;
    // What the listener threw after saying so surfaces once this turn's promises have settled.
    await new Promise((resolve) => setImmediate(resolve));
    assert.match(String(errors.mock.calls[0]?.arguments[0]), /in Koa and AdonisJS, ctx itself/);
    assert.deepEqual(thrown.map(String), []);
  });
});
