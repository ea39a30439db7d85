// The checkout_reference index: with thousands of checkouts stored, the duplicate rule
// (same reference and pay-to email: 409) and the list filter answer exactly as with a few,
// and a data file's checkouts are indexed when it is loaded.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { createSandbox, type Sandbox } from '../../../src/sandbox/index.ts';

const MANY = 3_000;
let sb: Sandbox;
let dir: string;
const dataFile = () => join(dir, 'state.json');

function call(target: Sandbox, method: string, path: string, body?: unknown) {
  return target.handle(
    new Request(`${target.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${target.apiKey}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    }),
  );
}

const create = (target: Sandbox, reference: string, extra: Record<string, unknown> = {}) =>
  call(target, 'POST', '/v0.1/checkouts', {
    checkout_reference: reference,
    amount: 10,
    currency: 'EUR',
    merchant_code: target.merchantCode,
    ...extra,
  });

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sandbox-references-'));
  sb = await createSandbox({ dataFile: dataFile() });
  for (let i = 0; i < MANY; i += 1) {
    const res = await create(sb, `order-${i}`);
    assert.equal(res.status, 201);
  }
});
after(async () => {
  await sb.close();
  rmSync(dir, { recursive: true, force: true });
});

test(`with ${MANY} checkouts, a repeated reference is still 409 and a new one 201`, async () => {
  for (const reference of ['order-0', `order-${MANY / 2}`, `order-${MANY - 1}`]) {
    const again = await create(sb, reference);
    assert.equal(again.status, 409, reference);
    assert.equal(
      ((await again.json()) as { error_code: string }).error_code,
      'DUPLICATED_CHECKOUT',
    );
  }
  assert.equal((await create(sb, `order-${MANY}`)).status, 201);
  // The rule is per pay-to email: another merchant user may reuse the reference.
  const other = await create(sb, 'order-7', { pay_to_email: 'other@example.com' });
  assert.equal(other.status, 201);
  const third = await create(sb, 'order-7', { pay_to_email: 'other@example.com' });
  assert.equal(third.status, 409);
});

test('the list filter by reference finds exactly the checkouts with it, oldest first', async () => {
  const res = await call(sb, 'GET', '/v0.1/checkouts?checkout_reference=order-7');
  const items = (await res.json()) as { checkout_reference: string; pay_to_email: string }[];
  assert.deepEqual(
    items.map((c) => [c.checkout_reference, c.pay_to_email]),
    [
      ['order-7', 'merchant@example.com'],
      ['order-7', 'other@example.com'],
    ],
  );
  const none = await call(sb, 'GET', '/v0.1/checkouts?checkout_reference=nope');
  assert.deepEqual(await none.json(), []);
});

test('checkouts loaded from a data file keep the duplicate rule', async () => {
  await sb.close();
  sb = await createSandbox({ dataFile: dataFile() });
  assert.equal((await create(sb, 'order-42')).status, 409);
  assert.equal((await create(sb, 'order-new-after-restart')).status, 201);
});
