import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { after, test } from 'node:test';
import { createSandbox } from 'payment-widget/sandbox';

const sandbox = await createSandbox(); // 127.0.0.1, a free port
const api = async (method, path, body) => {
  const res = await fetch(`${sandbox.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${sandbox.apiKey}`, 'content-type': 'application/json' },
    body: body && JSON.stringify(body),
  });
  return res.status === 204 ? null : res.json();
};

// The webhook handler under test: the notification is only a hint, so it reads the checkout
// and fulfils each paid order once.
const fulfilled = [];
let notifications = 0;
const shop = createServer(async (req, res) => {
  let body = '';
  for await (const chunk of req) body += chunk;
  notifications += 1;
  const checkout = await api('GET', `/v0.1/checkouts/${JSON.parse(body).id}`);
  if (checkout.status === 'PAID' && !fulfilled.includes(checkout.id)) fulfilled.push(checkout.id);
  res.writeHead(204).end();
});
await new Promise((resolve) => shop.listen(0, '127.0.0.1', resolve));
const webhook = `http://127.0.0.1:${shop.address().port}/webhook`;
after(() => Promise.all([sandbox.close(), new Promise((resolve) => shop.close(resolve))]));

const newCheckout = (extra) =>
  api('POST', '/v0.1/checkouts', {
    checkout_reference: `order-${Date.now()}-${Math.random()}`,
    amount: 10,
    currency: 'EUR',
    merchant_code: sandbox.merchantCode,
    return_url: webhook,
    ...extra,
  });
const card = {
  payment_type: 'card',
  card: {
    name: 'Ada Lovelace',
    number: '4200000000000091',
    expiry_month: '12',
    expiry_year: String(new Date().getFullYear() + 3),
    cvv: '123',
    last_4_digits: '0091',
    type: 'VISA',
  },
};

/** Polls the sandbox's record of its deliveries: no sleeping for a guessed time. */
async function delivered(count) {
  for (;;) {
    const deliveries = await api('GET', '/sandbox/webhook-deliveries');
    if (deliveries.filter((d) => d.state === 'delivered').length >= count) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

test('a notification sent twice fulfils the order once', async () => {
  await api('POST', '/sandbox/webhook-faults', { kind: 'duplicate' });
  const checkout = await newCheckout();
  await api('PUT', `/v0.1/checkouts/${checkout.id}`, card);
  await delivered(2);
  assert.equal(notifications, 2);
  assert.deepEqual(fulfilled, [checkout.id]);
});

test('an hour later the checkout cannot be paid, and nobody waited an hour', async () => {
  const validUntil = new Date(Date.now() + 3_600_000).toISOString();
  const checkout = await newCheckout({ valid_until: validUntil });
  await api('POST', '/sandbox/clock', { advanceMs: 3_600_000 });
  const refused = await api('PUT', `/v0.1/checkouts/${checkout.id}`, card);
  assert.equal(refused.param, 'valid_until');
});
