// The node:http edge: the same handler behind a real socket, so the sandbox's
// webhook can reach it and a 413 is really delivered to a client mid-upload.
import assert from 'node:assert/strict';
import { createServer, request as httpRequest } from 'node:http';
import { after, before, test } from 'node:test';
import { createSandbox, type Sandbox } from '../../../src/sandbox/index.ts';
import type { Checkout } from '../../../src/schemas/index.ts';
import {
  createPaymentHandler,
  createProviderClient,
  toNodeListener,
} from '../../../src/server/index.ts';
import { until } from '../../shared/until.ts';
import { cardBody } from '../support/cards.ts';
import { type Listening, listenLoopback } from '../support/loopback.ts';
import { CATALOGUE, ORIGIN } from './fixtures.ts';

let sb: Sandbox;
let server: Listening;
let base: string;
const paid: Checkout[] = [];

before(async () => {
  sb = await createSandbox({ port: 0, webhook: { attempts: 5, initialDelayMs: 50 } });
  let handle: (request: Request) => Promise<Response> = async () =>
    new Response(null, { status: 503 });
  server = await listenLoopback(createServer(toNodeListener((request) => handle(request))));
  base = server.url;
  handle = createPaymentHandler({
    provider: {
      baseUrl: sb.url,
      apiKey: sb.apiKey,
      merchantCode: sb.merchantCode,
    },
    publicUrl: `${base}/payments`,
    allowedOrigins: [ORIGIN],
    resultPages: {
      success: '/ok',
      failure: '/ko',
    },
    resolveCheckout: () => ({ ...CATALOGUE.tea! }),
    hooks: {
      onPaid: (checkout) => {
        paid.push(checkout);
      },
    },
  });
});

after(async () => {
  await sb.close();
  await server.close();
});

const headers = { origin: ORIGIN, 'content-type': 'application/json' };

test('the provider webhook reaches the handler over node:http and runs onPaid once', async () => {
  const created = await fetch(`${base}/payments/checkouts`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ order: 'tea' }),
  });
  assert.equal(created.status, 201);
  const { id } = await created.json();
  // Paid behind the handler's back: only the webhook can tell it.
  const provider = createProviderClient({ baseUrl: sb.url, apiKey: sb.apiKey });
  await provider.checkouts.process(id, cardBody('4200000000000091'));
  await until('onPaid from the webhook', () => paid.length > 0);
  assert.equal(paid.length, 1);
  assert.equal(paid[0]?.id, id);
  // The return page agrees and does not run the hook again.
  const back = await fetch(`${base}/payments/return?checkout_id=${id}`, { redirect: 'manual' });
  assert.equal(back.status, 303);
  assert.equal(back.headers.get('location'), `/ok?checkout_id=${id}`);
  assert.equal(paid.length, 1);
});

test('an oversize upload gets its 413 over the socket', async () => {
  // Written in pieces without Content-Length, as a slow client would.
  const { status, body } = await new Promise<{ status: number; body: string }>(
    (resolve, reject) => {
      const req = httpRequest(
        `${base}/payments/checkouts/abc`,
        { method: 'PUT', headers: { ...headers, 'transfer-encoding': 'chunked' } },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            text += chunk;
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
        },
      );
      req.on('error', reject);
      for (let i = 0; i < 10; i += 1) req.write('x'.repeat(4096));
      req.end();
    },
  );
  assert.equal(status, 413);
  assert.equal(JSON.parse(body).error.code, 'PAYLOAD_TOO_LARGE');
});
