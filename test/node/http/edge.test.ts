// The HTTP edge of all three servers, at the byte level: the companion handler behind
// toNodeListener, the sandbox, and the server-example. Bad JSON, oversized bodies (with a
// Content-Length and chunked), malformed %-escapes and unknown routes get a 4xx JSON error,
// never a 5xx; every empty answer says Content-Length: 0 (or is a 204); a client that hangs
// up mid-request or before reading the answer leaves the server serving.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { type ServerExample, startServerExample } from '../../../server-example/index.ts';
import { createSandbox, type Sandbox } from '../../../src/sandbox/index.ts';
import { createPaymentHandler, toNodeListener } from '../../../src/server/index.ts';
import { type Listening, listenLoopback } from '../support/loopback.ts';
import {
  chunked,
  parseResponse,
  type RawResponse,
  rawExchange,
  requestBytes,
} from '../support/raw-http.ts';

const ORIGIN = 'https://shop.example';

interface Target {
  name: string;
  url: string;
  /** `{ code, field }` of an error body, in the target's own shape. */
  errorOf(body: unknown): { code?: unknown; field?: unknown } | undefined;
  unknown: [method: string, path: string][];
  escapes: [method: string, path: string][];
  /** A JSON route, the headers it needs, and its body cap in bytes. */
  json: { method: string; path: string; headers: Record<string, string>; limit: number };
  /** Requests answered without a body. */
  empties(): Promise<
    [method: string, path: string, headers?: Record<string, string>, body?: string][]
  >;
  alive: [method: string, path: string, headers?: Record<string, string>];
}

let sandbox: Sandbox;
let handlerServer: Listening;
let shop: ServerExample;
let targets: Target[] = [];

const handlerShape = (body: unknown) =>
  (body as { error?: { code?: unknown; field?: unknown } }).error;
const providerShape = (body: unknown) => {
  const { error_code: code, param: field } = body as { error_code?: unknown; param?: unknown };
  return code === undefined ? undefined : { code, field };
};

async function sandboxCall(method: string, path: string, body?: unknown) {
  const res = await sandbox.handle(
    new Request(`${sandbox.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${sandbox.apiKey}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    }),
  );
  return (await res.json()) as Record<string, unknown>;
}

/** A reader paired to a switched-on device, and one with a checkout waiting for a card. */
async function readers(): Promise<{ idle: string; busy: string }> {
  const pair = async () => {
    const device = await sandboxCall('POST', '/sandbox/devices');
    const reader = await sandboxCall('POST', `/v0.1/merchants/${sandbox.merchantCode}/readers`, {
      pairing_code: device.pairing_code,
    });
    return String(reader.id);
  };
  const idle = await pair();
  const busy = await pair();
  await sandboxCall('POST', `/v0.1/merchants/${sandbox.merchantCode}/readers/${busy}/checkout`, {
    total_amount: { value: 100, currency: 'EUR', minor_unit: 2 },
  });
  return { idle, busy };
}

before(async () => {
  sandbox = await createSandbox({ webhook: { attempts: 1 }, readers: { pairingDelayMs: 0 } });
  const handle = createPaymentHandler({
    provider: {
      baseUrl: sandbox.url,
      apiKey: sandbox.apiKey,
      merchantCode: sandbox.merchantCode,
    },
    publicUrl: 'http://127.0.0.1:9/payments',
    allowedOrigins: [ORIGIN],
    resultPages: {
      success: '/ok',
      failure: '/ko',
    },
    resolveCheckout: () => ({ amount: 10, currency: 'EUR' }),
  });
  handlerServer = await listenLoopback(createServer(toNodeListener(handle)));
  shop = await startServerExample({
    providerBaseUrl: sandbox.url,
    providerApiKey: sandbox.apiKey,
    merchantCode: sandbox.merchantCode,
    port: 0,
  });
  const auth = { authorization: `Bearer ${sandbox.apiKey}` };
  const shopOrigin = new URL(shop.url).origin;
  targets = [
    {
      name: 'handler',
      url: handlerServer.url,
      errorOf: handlerShape,
      unknown: [
        ['GET', '/payments/nope'],
        ['GET', '/elsewhere'],
        ['POST', '/payments/checkouts/abc/more'],
      ],
      escapes: [
        ['GET', '/%zz'],
        ['GET', '/payments/%zz'],
        ['GET', '/payments/checkouts/%zz'],
        ['GET', '/payments/checkouts/%E0%A4%A'],
        ['GET', '/payments/customers/%zz/payment-instruments'],
      ],
      json: {
        method: 'POST',
        path: '/payments/checkouts',
        headers: { origin: ORIGIN },
        limit: 16 * 1024,
      },
      async empties() {
        const created = await sandboxCall('POST', '/v0.1/checkouts', {
          checkout_reference: `edge-${Date.now()}`,
          amount: 10,
          currency: 'EUR',
          merchant_code: sandbox.merchantCode,
        });
        return [
          ['GET', `/payments/return?checkout_id=${created.id}`],
          ['OPTIONS', '/payments/checkouts', { origin: ORIGIN }],
          [
            'POST',
            '/payments/webhook',
            { 'content-type': 'application/json' },
            '{"event_type":"SOMETHING_ELSE"}',
          ],
        ];
      },
      alive: ['GET', '/payments/payment-methods'],
    },
    {
      name: 'sandbox',
      url: sandbox.url,
      errorOf: providerShape,
      unknown: [
        ['GET', '/v9/nothing'],
        ['POST', '/'],
        ['DELETE', '/sandbox/nothing'],
      ],
      escapes: [
        ['GET', '/%zz'],
        ['GET', '/v0.1/checkouts/%zz'],
        ['GET', `/v0.1/merchants/%zz/readers`],
        ['POST', '/sandbox/3ds/%zz'],
      ],
      json: { method: 'POST', path: '/v0.1/checkouts', headers: auth, limit: 64 * 1024 },
      async empties() {
        const { idle, busy } = await readers();
        const base = `/v0.1/merchants/${sandbox.merchantCode}/readers`;
        return [
          ['POST', `${base}/${busy}/terminate`, auth],
          ['DELETE', `${base}/${idle}`, auth],
          ['DELETE', '/sandbox/faults', auth],
        ];
      },
      alive: ['GET', '/v0.1/checkouts', auth],
    },
    {
      name: 'server-example',
      url: shopOrigin,
      errorOf: handlerShape,
      unknown: [
        ['GET', '/nope'],
        ['POST', '/nope'],
        ['GET', '/in-person/api/nope'],
        ['GET', '/payments/nope'],
      ],
      escapes: [
        ['GET', '/%zz'],
        ['GET', '/in-person/api/payments/%zz'],
        ['POST', '/in-person/api/readers/%zz/checkout'],
        ['GET', '/assets/locales/%zz.js'],
        ['GET', '/demo/%zz.js'],
        ['GET', '/examples/react/%zz'],
      ],
      json: {
        method: 'POST',
        path: '/in-person/api/readers/rdr_1/checkout',
        headers: { origin: shopOrigin },
        limit: 8 * 1024,
      },
      async empties() {
        return [
          ['GET', '/examples/react'],
          [
            'POST',
            '/in-person/webhook',
            { 'content-type': 'application/json' },
            JSON.stringify({
              event_type: 'solo.transaction.updated',
              id: 'x',
              payload: {
                client_transaction_id: 'not-ours',
                merchant_code: sandbox.merchantCode,
                status: 'successful',
              },
              timestamp: new Date().toISOString(),
            }),
          ],
        ];
      },
      alive: ['GET', '/result?checkout_id=abc'],
    },
  ];
});

after(async () => {
  await shop.close();
  await handlerServer.close();
  await sandbox.close();
});

async function send(
  target: Target,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<RawResponse> {
  const answer = await rawExchange(target.url, requestBytes(method, path, headers, body));
  const response = parseResponse(answer);
  assert.ok(response, `${target.name} ${method} ${path}: no answer`);
  return response;
}

/** A 4xx with a JSON body in the target's error shape, naming `field` when given. */
function expectJsonError(target: Target, what: string, res: RawResponse, field?: string): void {
  assert.ok(
    res.status >= 400 && res.status < 500,
    `${target.name} ${what}: ${res.status} ${res.body}`,
  );
  assert.match(res.header('content-type') ?? '', /application\/json/, `${target.name} ${what}`);
  const error = target.errorOf(JSON.parse(res.body));
  assert.ok(typeof error?.code === 'string', `${target.name} ${what}: ${res.body}`);
  if (field !== undefined) assert.equal(error.field, field, `${target.name} ${what}: ${res.body}`);
}

async function expectAlive(target: Target, after: string): Promise<void> {
  const [method, path, headers] = target.alive;
  const res = await send(target, method, path, headers);
  assert.equal(res.status, 200, `${target.name} stopped serving after ${after}`);
}

describe('bad requests are a 4xx JSON error, never a 5xx', () => {
  test('unknown routes', async () => {
    for (const target of targets) {
      for (const [method, path] of target.unknown) {
        expectJsonError(target, `${method} ${path}`, await send(target, method, path));
      }
    }
  });

  test('malformed percent-escapes in the path', async () => {
    for (const target of targets) {
      const origin = target.json.headers.origin;
      for (const [method, path] of target.escapes) {
        const headers: Record<string, string> = { ...target.json.headers };
        if (origin !== undefined) headers.origin = origin;
        expectJsonError(target, `${method} ${path}`, await send(target, method, path, headers));
      }
      await expectAlive(target, 'bad escapes');
    }
  });

  test('a body that is not JSON names the body', async () => {
    for (const target of targets) {
      const { method, path, headers } = target.json;
      const res = await send(
        target,
        method,
        path,
        { ...headers, 'content-type': 'application/json' },
        '{"order":',
      );
      assert.equal(res.status, 400, `${target.name}: ${res.body}`);
      expectJsonError(target, 'bad JSON', res, 'body');
    }
  });

  test('an oversized body is a 413, declared or chunked', async () => {
    for (const target of targets) {
      const { method, path, headers, limit } = target.json;
      const big = JSON.stringify({ amount: 'x'.repeat(limit + 100) });
      const jsonHeaders = { ...headers, 'content-type': 'application/json' };
      const declared = await send(target, method, path, jsonHeaders, big);
      assert.equal(declared.status, 413, `${target.name} declared: ${declared.body}`);
      expectJsonError(target, 'declared oversize', declared);
      const streamed = await send(
        target,
        method,
        path,
        { ...jsonHeaders, 'transfer-encoding': 'chunked' },
        chunked(big),
      );
      assert.equal(streamed.status, 413, `${target.name} chunked: ${streamed.body}`);
      expectJsonError(target, 'chunked oversize', streamed);
      await expectAlive(target, 'oversized bodies');
    }
  });
});

test('every empty answer says Content-Length: 0 or is a 204', async () => {
  for (const target of targets) {
    const empties = await target.empties();
    assert.ok(empties.length > 0);
    for (const [method, path, headers, body] of empties) {
      const res = await send(target, method, path, headers, body);
      assert.ok(res.status < 500, `${target.name} ${method} ${path}: ${res.status}`);
      assert.equal(res.body, '', `${target.name} ${method} ${path}`);
      assert.equal(res.chunked, false, `${target.name} ${method} ${path} came chunked`);
      if (res.status !== 204) {
        assert.equal(
          res.header('content-length'),
          '0',
          `${target.name} ${method} ${path} ${res.status}`,
        );
      }
    }
  }
});

test('a client that hangs up mid-body or before the answer leaves the server serving', async () => {
  for (const target of targets) {
    const { method, path, headers } = target.json;
    const head = requestBytes(method, path, {
      ...headers,
      'content-type': 'application/json',
      'content-length': '5000',
    });
    await rawExchange(target.url, `${head}{"amount":`, 'hang up');
    const [aliveMethod, alivePath, aliveHeaders] = target.alive;
    await rawExchange(target.url, requestBytes(aliveMethod, alivePath, aliveHeaders), 'hang up');
    await expectAlive(target, 'hang-ups');
  }
});

describe('toNodeListener', () => {
  test('several Set-Cookie headers arrive as separate lines; Response.error() hangs up', async () => {
    const server = await listenLoopback(
      createServer(
        toNodeListener((request) => {
          if (new URL(request.url).pathname === '/drop') return Response.error();
          const headers = new Headers({ 'content-type': 'text/plain' });
          headers.append('set-cookie', 'a=1; Path=/; HttpOnly');
          headers.append('set-cookie', 'b=2; Path=/; Secure');
          return new Response('ok', { headers });
        }),
      ),
    );
    try {
      const answer = parseResponse(await rawExchange(server.url, requestBytes('GET', '/')));
      assert.deepEqual(
        answer?.headers.filter(([name]) => name === 'set-cookie').map(([, value]) => value),
        ['a=1; Path=/; HttpOnly', 'b=2; Path=/; Secure'],
      );
      assert.equal(await rawExchange(server.url, requestBytes('GET', '/drop')), '');
    } finally {
      await server.close();
    }
  });
});
