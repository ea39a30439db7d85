// No response body and no log line may carry the API key or a full card number,
// whatever path a request takes: success, challenge, validation error, provider
// error, or a provider that misbehaves by echoing our credentials back.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Sandbox } from '../../../src/sandbox/index.ts';
import { createPaymentHandler } from '../../../src/server/index.ts';
import { cardBody, cardBodyWith } from '../support/cards.ts';
import { createCheckout, makeHandler, ORIGIN, request, startSandbox } from './fixtures.ts';
import { sendJson, startScriptedServer } from './helpers.ts';

let sb: Sandbox;
before(async () => {
  sb = await startSandbox();
});
after(async () => {
  await sb.close();
});

const PANS = ['4200000000000091', '4200000000000042', '5200000000000007', '4012001037461114'];

function assertClean(texts: string[], apiKey: string) {
  assert.ok(texts.length > 0);
  for (const text of texts) {
    assert.ok(!text.includes(apiKey), `API key leaked in: ${text}`);
    for (const pan of PANS) assert.ok(!text.includes(pan), `card number leaked in: ${text}`);
    // CVVs are too short to search for alone; the field name must not appear either.
    assert.ok(!/"cvv"/.test(text), `cvv leaked in: ${text}`);
  }
}

test('a full set of flows leaks neither the key nor a card number', async () => {
  const h = makeHandler(sb);
  const bodies: string[] = [];
  const send = async (req: Request) => {
    const res = await h.handle(req);
    bodies.push(`${res.status} ${res.headers.get('location') ?? ''} ${await res.text()}`);
    return res;
  };
  const paid = await createCheckout(h);
  await send(request('PUT', `/checkouts/${paid.id}`, { body: cardBody('4200000000000091') }));
  await send(request('PUT', `/checkouts/${paid.id}`, { body: cardBody('4200000000000091') })); // 409
  const challenged = await createCheckout(h);
  await send(request('PUT', `/checkouts/${challenged.id}`, { body: cardBody('4200000000000042') }));
  const failed = await createCheckout(h, { sku: 'declined' });
  await send(request('PUT', `/checkouts/${failed.id}`, { body: cardBody('4012001037461114') }));
  const invalid = await createCheckout(h);
  await send(
    request('PUT', `/checkouts/${invalid.id}`, {
      body: cardBodyWith('5200000000000007', { expiry_month: '13' }),
    }),
  );
  await send(
    request('PUT', `/checkouts/${invalid.id}`, {
      body: cardBodyWith('5200000000000007', { type: 'NOPE' }),
    }),
  );
  await send(
    request('PUT', `/checkouts/${invalid.id}`, {
      body: cardBodyWith('5200000000000007', { last_4_digits: '1111' }),
    }),
  );
  await send(
    request('PUT', `/checkouts/${invalid.id}`, {
      origin: 'https://evil.example',
      body: cardBody('5200000000000007'),
    }),
  );
  await send(request('GET', `/checkouts/${paid.id}`));
  await send(request('GET', `/return?checkout_id=${paid.id}`, { origin: null }));
  await send(request('POST', '/webhook', { origin: null, body: { id: failed.id } }));
  await send(request('GET', '/checkouts/unknown-id'));
  assert.ok(bodies.some((b) => b.startsWith('200 ') && b.includes('"PAID"')));
  assert.ok(bodies.some((b) => b.startsWith('400 ')));
  assert.ok(bodies.some((b) => b.startsWith('202 ') && b.includes('TermUrl')));
  assertClean(bodies, sb.apiKey);
  assertClean(h.logs, sb.apiKey);
});

test('a provider that echoes the key in an error message is redacted', async () => {
  const apiKey = 'sk_test_echo_me_please';
  const echo = await startScriptedServer((req, res) =>
    sendJson(res, 401, {
      error_code: 'NOT_AUTHORIZED',
      message: `bad token: ${req.headers.authorization}`,
    }),
  );
  const logs: string[] = [];
  try {
    const handle = createPaymentHandler({
      provider: {
        baseUrl: echo.url,
        apiKey,
        merchantCode: 'M1',
      },
      publicUrl: 'https://shop.example/payments',
      allowedOrigins: [ORIGIN],
      resultPages: {
        success: '/ok',
        failure: '/ko',
      },
      resolveCheckout: () => ({ amount: 1, currency: 'EUR' }),
      logger: (entry) => logs.push(JSON.stringify(entry)),
    });
    const res = await handle(
      request('PUT', '/checkouts/c1', { body: cardBody('4200000000000091') }),
    );
    assert.equal(res.status, 401);
    const text = await res.text();
    assert.match(text, /\[redacted\]/);
    assertClean([text], apiKey);
    assertClean(logs, apiKey);
  } finally {
    await echo.close();
  }
});
