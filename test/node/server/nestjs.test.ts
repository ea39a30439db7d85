// The handler in a NestJS 12 app, on loopback, on its default Express adapter (which parses
// JSON and form bodies before any controller) and on its Fastify adapter (Fastify's request
// and reply reach a controller's @Req() and @Res()), each mounted the two ways a Nest
// developer writes it: a controller's catch-all route, and app.use('/payments', ...) in
// main.ts, which cuts the prefix off req.url and keeps the whole path in req.originalUrl.
// The decorators are called as functions: Node runs this file's TypeScript without them.
import 'reflect-metadata';
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { All, Controller, type INestApplication, Module, Req, Res } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import type { Sandbox } from '../../../src/sandbox/index.ts';
import { type NodeRequestListener, toNodeListener } from '../../../src/server/index.ts';
import { type Harness, makeHandler, ORIGIN, startSandbox } from './fixtures.ts';
import { payWith3ds, payWithCard } from './pay-through.ts';

let sb: Sandbox;
before(async () => {
  sb = await startSandbox();
});
after(() => sb.close());

type Adapter = 'express' | 'fastify';

/**
 * `@Controller() class PaymentsController { @All(path) pay(@Req() req, @Res() res) {...} }`:
 * Nest's Express adapter takes `payments/*path`; its Fastify adapter, `payments/*`.
 */
function paymentsController(listener: NodeRequestListener, path: string) {
  class PaymentsController {
    pay(req: Parameters<NodeRequestListener>[0], res: Parameters<NodeRequestListener>[1]) {
      listener(req, res);
    }
  }
  const { prototype } = PaymentsController;
  Req()(prototype, 'pay', 0);
  Res()(prototype, 'pay', 1);
  const pay = Object.getOwnPropertyDescriptor(prototype, 'pay');
  assert.ok(pay);
  All(path)(prototype, 'pay', pay);
  Controller()(PaymentsController);
  return PaymentsController;
}

async function start(
  adapter: Adapter,
  mount: 'controller' | 'use',
  h: Harness,
  rawBody = false,
): Promise<{ app: INestApplication; base: string }> {
  const listener = toNodeListener(h.handle);
  const path = adapter === 'express' ? 'payments/*path' : 'payments/*';
  class AppModule {}
  Module({ controllers: mount === 'controller' ? [paymentsController(listener, path)] : [] })(
    AppModule,
  );
  const options = { logger: false as const, rawBody };
  const app =
    adapter === 'express'
      ? await NestFactory.create(AppModule, options)
      : await NestFactory.create(AppModule, new FastifyAdapter(), options);
  if (mount === 'use') app.use('/payments', listener);
  await app.listen(0, '127.0.0.1');
  return { app, base: (await app.getUrl()).replace('[::1]', '127.0.0.1') };
}

const cases: [Adapter, 'controller' | 'use', boolean][] = [
  ['express', 'controller', false],
  ['express', 'use', false],
  ['fastify', 'controller', false],
  ['fastify', 'controller', true],
  ['fastify', 'use', false],
];

for (const [adapter, mount, rawBody] of cases) {
  const how = mount === 'controller' ? 'a controller’s @All() route' : "app.use('/payments', ...)";
  describe(`NestJS on ${adapter}, ${how}${rawBody ? ', rawBody: true' : ''}`, () => {
    let app: INestApplication;
    let base: string;
    let h: Harness;
    before(async () => {
      h = makeHandler(sb);
      ({ app, base } = await start(adapter, mount, h, rawBody));
    });
    after(() => app.close());

    test('a card, its webhook, a 3-D Secure card and the return', async () => {
      await payWithCard(base, h);
      await payWith3ds(base);
    });

    test('a form, parsed by Nest, is still not JSON to the handler', async () => {
      const form = await fetch(`${base}/payments/checkouts`, {
        method: 'POST',
        headers: { origin: ORIGIN, 'content-type': 'application/x-www-form-urlencoded' },
        body: 'order=tea',
      });
      assert.equal(form.status, 415);
      const { error } = (await form.json()) as { error: { field: string } };
      assert.equal(error.field, 'content-type');
    });
  });
}
