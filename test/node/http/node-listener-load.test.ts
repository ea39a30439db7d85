// toNodeListener loads @hono/node-server from node_modules on the first request. Where it cannot
// (a server bundled by ng build, deployed as dist/ without node_modules), every request is a
// 500 with an X-Request-Id, and the console says why, once. A file of its own, in a process of
// its own on every Node line (scripts/node-tests.mjs OWN_PROCESS): the hook below is the whole
// process's.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { registerHooks } from 'node:module';
import { test } from 'node:test';
import { toNodeListener } from '../../../src/server/index.ts';
import { REQUEST_ID_PATTERN } from '../../../src/shared/request-id.ts';
import { type Listening, listenLoopback } from '../support/loopback.ts';

registerHooks({
  resolve(specifier, context, nextResolve) {
    if (specifier === '@hono/node-server' || specifier.startsWith('@hono/node-server/')) {
      const error = new Error(
        `Cannot find package '${specifier}' imported from ${context.parentURL}`,
      );
      throw Object.assign(error, { code: 'ERR_MODULE_NOT_FOUND' });
    }
    return nextResolve(specifier, context);
  },
});

test('without @hono/node-server, a 500 and the console names it once', async (t) => {
  const errors = t.mock.method(console, 'error', () => {});
  let server: Listening | undefined;
  try {
    server = await listenLoopback(createServer(toNodeListener(() => new Response('ok'))));
    for (const path of ['/payments/checkouts', '/payments/payment-methods']) {
      const res: Response = await fetch(`${server.url}${path}`);
      assert.equal(res.status, 500);
      assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'INTERNAL');
      // Named as every answer is: a new id, or the caller's own.
      assert.match(res.headers.get('x-request-id') ?? '', REQUEST_ID_PATTERN);
      const named: Response = await fetch(`${server.url}${path}`, {
        headers: { 'x-request-id': 'mine-1' },
      });
      assert.equal(named.status, 500);
      assert.equal(named.headers.get('x-request-id'), 'mine-1');
      await named.body?.cancel();
    }
    assert.equal(errors.mock.callCount(), 1);
    const told = String(errors.mock.calls[0]?.arguments[0]);
    assert.match(
      told,
      /could not load @hono\/node-server \(Cannot find package '@hono\/node-server'/,
    );
    assert.match(told, /needs the package's dependencies installed beside it/);
  } finally {
    await server?.close();
  }
});
