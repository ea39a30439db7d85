// The handler as a React Router 8 (framework mode) splat resource route, `routes/payments.$.ts`,
// whose loader (GET, HEAD) and action (every other method) both return `payments(request)`:
// React Router's own request handler, given the server build `react-router build` writes for
// such an app (a root and that route), served on loopback. React Router's server
// (react-router-serve) tells a route nothing of the connection, so the client's address is
// the one a proxy put in X-Forwarded-For, and without a proxy there is none; a custom Express
// server whose getLoadContext gives routes Node's request and response, which the route hands
// the handler, counts the connection's address.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type ServerType, serve } from '@hono/node-server';
import { createRequestHandler, RouterContextProvider, type ServerBuild } from 'react-router';
import type { Sandbox } from '../../../src/sandbox/index.ts';
import { type Harness, makeHandler, ORIGIN, startSandbox } from './fixtures.ts';
import { payWith3ds, payWithCard } from './pay-through.ts';

let sb: Sandbox;
before(async () => {
  sb = await startSandbox();
});
after(() => sb.close());

interface Args {
  request: Request;
  context: unknown;
}

const route = (id: string, path: string, parentId?: string) => ({ id, path, parentId });

/** The server build of an app with the payment route, as `react-router build` lays it out. */
type Payments = (request: Request, context: unknown) => Promise<Response>;

function buildWith(payments: Payments): ServerBuild {
  const manifest = (id: string, path: string, parentId?: string) => ({
    ...route(id, path, parentId),
    module: `/assets/${id}.js`,
    hasAction: parentId !== undefined,
    hasLoader: parentId !== undefined,
    hasClientAction: false,
    hasClientLoader: false,
    hasClientMiddleware: false,
    hasErrorBoundary: false,
  });
  return {
    entry: { module: { default: () => new Response('no pages here', { status: 500 }) } },
    routes: {
      root: { ...route('root', ''), module: { default: () => null } },
      'routes/payments.$': {
        ...route('routes/payments.$', 'payments/*', 'root'),
        module: {
          loader: ({ request, context }: Args) => payments(request, context),
          action: ({ request, context }: Args) => payments(request, context),
        },
      },
    },
    assets: {
      entry: { module: '/assets/entry.client.js', imports: [] },
      routes: {
        root: manifest('root', ''),
        'routes/payments.$': manifest('routes/payments.$', 'payments/*', 'root'),
      },
      url: '/assets/manifest.js',
      version: '1',
    },
    publicPath: '/',
    assetsBuildDirectory: 'build/client',
    future: {},
    ssr: true,
    isSpaMode: false,
    prerender: [],
    routeDiscovery: { mode: 'lazy', manifestPath: '/__manifest' },
  } as unknown as ServerBuild;
}

/**
 * React Router's handler on loopback, the handler's Response passed on as it came. With
 * `nodeContext`, each route's context is Node's request and response, as a custom Express
 * server's getLoadContext gives them; without it, none, as react-router-serve.
 */
async function listen(
  build: ServerBuild,
  nodeContext = false,
): Promise<{ base: string; server: ServerType }> {
  const handle = createRequestHandler(build, 'production');
  let server: ServerType | undefined;
  const port = await new Promise<number>((resolve) => {
    server = serve(
      {
        // The context a custom server's getLoadContext gives (docs/server.md): React Router 8,
        // and 7 with v8_middleware, refuse anything but a RouterContextProvider.
        fetch: (request, env) =>
          handle(
            request,
            nodeContext ? Object.assign(new RouterContextProvider(), env) : undefined,
          ),
        hostname: '127.0.0.1',
        port: 0,
      },
      (info) => resolve(info.port),
    );
  });
  assert.ok(server);
  return { base: `http://127.0.0.1:${port}`, server };
}

describe('React Router 8: routes/payments.$.ts, loader and action returning payments(request)', () => {
  let h: Harness;
  let base: string;
  let server: ServerType;
  before(async () => {
    // As docs/server.md has it: the address the proxy added last to X-Forwarded-For.
    h = makeHandler(sb, {
      rateLimit: {
        clientAddress: (request) =>
          request.headers.get('x-forwarded-for')?.split(',').at(-1)?.trim(),
      },
    });
    ({ base, server } = await listen(buildWith(h.handle)));
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  test('a card, its webhook, a 3-D Secure card and the return, through the loader and the action', async () => {
    await payWithCard(base, h);
    await payWith3ds(base);
  });

  test('a preflight reaches the action, a HEAD the loader, an unknown path the handler’s 404', async () => {
    const preflight = await fetch(`${base}/payments/checkouts`, {
      method: 'OPTIONS',
      headers: { origin: ORIGIN, 'access-control-request-method': 'PUT' },
    });
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers.get('access-control-allow-origin'), ORIGIN);
    const head = await fetch(`${base}/payments/payment-methods?amount=10&currency=EUR`, {
      method: 'HEAD',
    });
    assert.equal(head.status, 200);
    const unknown = await fetch(`${base}/payments/nope`);
    assert.equal(unknown.status, 404);
    assert.equal(((await unknown.json()) as { error: { code: string } }).error.code, 'NOT_FOUND');
  });

  test('reached without the proxy, the warning names clientAddress as what answered nothing', () => {
    const warned = h.logs.filter((line) => line.includes('per-client limits are not applied'));
    assert.equal(warned.length, 1, h.logs.join('\n'));
    assert.match(warned[0] ?? '', /rateLimit\.clientAddress answered no address/);
  });
});

describe('React Router 8 behind a custom Express server: payments(request, context), Node’s request as context', () => {
  let h: Harness;
  let base: string;
  let server: ServerType;
  before(async () => {
    h = makeHandler(sb, { rateLimit: { checkoutsPerClient: { limit: 1 } } });
    ({ base, server } = await listen(buildWith(h.handle), true));
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  test('the connection’s address counts: a second checkout from it is refused, with no warning', async () => {
    const create = () =>
      fetch(`${base}/payments/checkouts`, {
        method: 'POST',
        headers: { origin: ORIGIN, 'content-type': 'application/json' },
        body: JSON.stringify({ order: { sku: 'tea' } }),
      });
    assert.equal((await create()).status, 201);
    assert.equal((await create()).status, 429);
    assert.deepEqual(
      h.logs.filter((line) => line.includes('per-client limits are not applied')),
      [],
    );
  });
});
