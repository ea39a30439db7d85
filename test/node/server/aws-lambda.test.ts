// The handler on AWS Lambda through Hono's own adapter, `handle()` from hono/aws-lambda, fed
// the events API Gateway and Lambda Function URLs send (their recorded shapes: a REST API's
// path without its stage and multi-value headers, an HTTP API's raw path and `cookies`, a
// Function URL's `$default` stage, bodies base64 as a REST API with binary media types
// passes them), against the real sandbox. A REST API hands the function the path without
// its stage (`/payments/...` for `https://.../prod/payments/...`): `basePath` is that end of
// `publicUrl`'s path, and every URL the provider gets keeps the stage. The per-client rate
// limits read the address API Gateway saw connect, from the env `handle()` passes.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Hono } from 'hono';
import { handle, type LambdaEvent } from 'hono/aws-lambda';
import type { Sandbox } from '../../../src/sandbox/index.ts';
import { cardBody } from '../support/cards.ts';
import { type HandlerOverrides, makeHandler, ORIGIN, startSandbox } from './fixtures.ts';

type RestEvent = Extract<LambdaEvent, { resource: string }> & {
  multiValueHeaders: Record<string, string[]>;
};
type HttpEvent = Extract<LambdaEvent, { rawPath: string }>;

const HOST = 'abc123.execute-api.eu-west-1.amazonaws.com';
const URL_HOST = 'abc123.lambda-url.eu-west-1.on.aws';

interface Call {
  headers?: Record<string, string>;
  body?: unknown;
  query?: Record<string, string>;
  ip?: string;
  cookies?: string[];
}

/** API Gateway's REST API (v1) with stage `prod`: `path` without the stage, as it sends it. */
function restEvent(method: string, path: string, call: Call = {}): RestEvent {
  const headers: Record<string, string> = { host: HOST, ...call.headers };
  const body = call.body === undefined ? null : JSON.stringify(call.body);
  const query = call.query ?? null;
  return {
    version: '1.0',
    resource: '/{proxy+}',
    path,
    httpMethod: method,
    headers,
    multiValueHeaders: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, [v]])),
    ...(query === null
      ? {}
      : {
          queryStringParameters: query,
          multiValueQueryStringParameters: Object.fromEntries(
            Object.entries(query).map(([k, v]) => [k, [v]]),
          ),
        }),
    pathParameters: { proxy: path.slice(1) },
    requestContext: {
      accountId: '123456789012',
      apiId: 'abc123',
      authorizer: {},
      domainName: HOST,
      domainPrefix: 'abc123',
      extendedRequestId: 'x',
      httpMethod: method,
      identity: { sourceIp: call.ip ?? '198.51.100.7' } as RestEvent['requestContext']['identity'],
      path: `/prod${path}`,
      protocol: 'HTTP/1.1',
      requestId: crypto.randomUUID(),
      requestTime: '04/Dec/2026:23:00:00 +0000',
      requestTimeEpoch: Date.now(),
      resourcePath: '/{proxy+}',
      stage: 'prod',
    },
    // A REST API with binary media types `*/*` passes every body base64.
    body: body === null ? null : Buffer.from(body).toString('base64'),
    isBase64Encoded: body !== null,
  };
}

/** An HTTP API (v2, stage `prod` in the path) or a Function URL (no stage). */
function httpEvent(host: string, stage: string, method: string, path: string, call: Call = {}) {
  const ip = call.ip ?? '198.51.100.7';
  const event: HttpEvent = {
    version: '2.0',
    routeKey: stage === '' ? '$default' : 'ANY /payments/{proxy+}',
    rawPath: `${stage}${path}`,
    rawQueryString: new URLSearchParams(call.query).toString(),
    ...(call.cookies === undefined ? {} : { cookies: call.cookies }),
    headers: { host, 'x-forwarded-for': ip, ...call.headers },
    requestContext: {
      accountId: '123456789012',
      apiId: 'abc123',
      authentication: null,
      authorizer: {},
      domainName: host,
      domainPrefix: 'abc123',
      http: { method, path: `${stage}${path}`, protocol: 'HTTP/1.1', sourceIp: ip, userAgent: 't' },
      requestId: crypto.randomUUID(),
      routeKey: stage === '' ? '$default' : 'ANY /payments/{proxy+}',
      stage: stage === '' ? '$default' : stage.slice(1),
      time: '04/Dec/2026:23:00:00 +0000',
      timeEpoch: Date.now(),
    },
    body: call.body === undefined ? null : JSON.stringify(call.body),
    isBase64Encoded: false,
  };
  return event;
}

/** The merchant's Lambda: the handler in a Hono app, `c.env` handed on, behind handle(). */
function lambda(sb: Sandbox, overrides: HandlerOverrides) {
  const h = makeHandler(sb, overrides);
  const app = new Hono();
  app.all('/*', (c) => h.handle(c.req.raw, c.env));
  return { h, run: handle(app) };
}

const json = { origin: ORIGIN, 'content-type': 'application/json' };
const order = { order: { sku: 'tea' } };

let sb: Sandbox;
before(async () => {
  sb = await startSandbox();
});
after(() => sb.close());

describe('API Gateway REST API, stage /prod, through hono/aws-lambda', () => {
  const publicUrl = `https://${HOST}/prod/payments`;

  test('basePath /payments under publicUrl .../prod/payments: routes match, the provider gets the stage', async () => {
    const { h, run } = lambda(sb, {
      publicUrl,
      basePath: '/payments',
      resultPages: { success: `https://${HOST}/prod/result` },
    });
    const created = await run(
      restEvent('POST', '/payments/checkouts', { headers: json, body: order }),
    );
    assert.equal(created.statusCode, 201, created.body);
    const { id, redirect_url } = JSON.parse(created.body) as { id: string; redirect_url: string };
    // Where the bank's page sends the browser: the stage it sees included.
    assert.equal(redirect_url, `${publicUrl}/return`);
    const paying = await run(
      restEvent('PUT', `/payments/checkouts/${id}`, {
        headers: json,
        body: cardBody('4200000000000042'),
      }),
    );
    assert.equal(paying.statusCode, 202, paying.body);
    const { payload } = (
      JSON.parse(paying.body) as { next_step: { payload: Record<string, string> } }
    ).next_step;
    const issuer = await fetch(payload.TermUrl as string, {
      method: 'POST',
      body: new URLSearchParams({ MD: payload.MD as string, PaRes: 'Y' }),
      redirect: 'manual',
    });
    const back = new URL(issuer.headers.get('location') ?? '');
    assert.equal(`${back.origin}${back.pathname}`, `${publicUrl}/return`);
    // API Gateway takes the stage off before the function sees the path.
    const result = await run(
      restEvent('GET', back.pathname.replace(/^\/prod/, ''), {
        query: Object.fromEntries(back.searchParams),
      }),
    );
    assert.equal(result.statusCode, 303, result.body);
    assert.deepEqual(result.multiValueHeaders.location, [
      `https://${HOST}/prod/result?checkout_id=${id}`,
    ]);
    // The provider's webhook, its JSON body base64 and no Origin: read, answered 204.
    const hook = await run(
      restEvent('POST', '/payments/webhook', {
        headers: { 'content-type': 'application/json' },
        body: { event_type: 'CHECKOUT_STATUS_CHANGED', id },
      }),
    );
    assert.equal(hook.statusCode, 204, hook.body);
    assert.deepEqual(
      h.paid.map((c) => c.id),
      [id],
    );
  });

  test('a basePath that is no end of publicUrl’s path is still refused at start', () => {
    for (const basePath of ['/prod', '/pay', '/other/payments']) {
      assert.throws(
        () => makeHandler(sb, { publicUrl, basePath }),
        /basePath must be publicUrl's path, "\/prod\/payments" \(its default: leave it out\), or the end of it/,
      );
    }
  });
});

describe('the per-client limits on Lambda read the address API Gateway saw', () => {
  const cases = [
    {
      name: 'REST API',
      publicUrl: `https://${HOST}/prod/payments`,
      basePath: '/payments',
      event: (call: Call) => restEvent('POST', '/payments/checkouts', call),
    },
    {
      name: 'HTTP API, stage /prod',
      publicUrl: `https://${HOST}/prod/payments`,
      event: (call: Call) => httpEvent(HOST, '/prod', 'POST', '/payments/checkouts', call),
    },
    {
      name: 'Function URL',
      publicUrl: `https://${URL_HOST}/payments`,
      event: (call: Call) => httpEvent(URL_HOST, '', 'POST', '/payments/checkouts', call),
    },
  ];
  for (const { name, event, ...mount } of cases) {
    test(`${name}: one shopper's second checkout over the limit is refused, another's is made`, async () => {
      const { h, run } = lambda(sb, {
        ...mount,
        rateLimit: { checkoutsPerClient: { limit: 1, windowMs: 60_000 } },
      });
      const create = (ip: string) => run(event({ headers: json, body: order, ip }));
      assert.equal((await create('198.51.100.7')).statusCode, 201);
      const again = await create('198.51.100.7');
      assert.equal(again.statusCode, 429, again.body);
      assert.equal((await create('203.0.113.9')).statusCode, 201);
      assert.ok(!h.logs.some((l) => l.includes('client address of a request is unknown')));
    });
  }
});
