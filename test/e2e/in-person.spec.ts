// The in-person page: a merchant pairs a simulated reader, takes a payment on it and
// sees the result the provider's webhook brought to the shop's server; a terminated checkout
// shows as failed the same way. The page runs under its own strict CSP (no inline script,
// Trusted Types), so any violation is a console error and fails the test.
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, type Shop, test, watchProblems } from './fixtures.ts';

/** Opens the page and pairs a new simulated reader through its simulator panel. */
async function openWithReader(page: Page, shop: Shop): Promise<string> {
  await page.goto(new URL('/in-person', shop.url).href);
  await expect(page.getByRole('heading', { name: 'Sandbox device simulator' })).toBeVisible();
  await page.getByRole('button', { name: 'Add a simulated reader' }).click();
  const reader = page.getByLabel('Reader', { exact: true });
  await expect(reader).toBeEnabled();
  // The new reader is selected; its name is what the server gave it.
  const name = (await reader.locator('option:checked').textContent()) ?? '';
  expect(name).toMatch(/^Simulated reader \d+$/);
  await expect(page.getByRole('button', { name: 'Start checkout' })).toBeEnabled();
  return name;
}

async function startCheckout(page: Page, amount: string): Promise<void> {
  await page.getByLabel(/^Amount/).fill(amount);
  await page.getByRole('button', { name: 'Start checkout' }).click();
  await expect(page.locator('#payment-status')).toHaveText(/^pending/);
}

test('present a card: the webhook-confirmed result "successful" shows', async ({ page, shop }) => {
  const problems = await watchProblems(page);
  await openWithReader(page, shop);
  await startCheckout(page, '12.50');
  await expect(page.locator('#payment-amount')).toHaveText('12.50 EUR');
  await page.getByRole('button', { name: 'Present card' }).click();
  await expect(page.locator('#payment-status')).toHaveText('successful');
  await expect(page.getByRole('button', { name: 'Terminate' })).toBeDisabled();
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);

  // The provider agrees: its transaction for this checkout succeeded.
  const id = (await page.locator('#payment-id').textContent()) ?? '';
  const res = await shop.provider(
    'GET',
    `/v2.1/merchants/${shop.sandbox.merchantCode}/transactions?client_transaction_id=${id}`,
  );
  expect(((await res.json()) as { status?: string }).status).toBe('SUCCESSFUL');
  expect(problems).toEqual([]);
});

test('terminate a waiting checkout: "failed" shows, then another can start', async ({
  page,
  shop,
}) => {
  const problems = await watchProblems(page);
  await openWithReader(page, shop);
  await startCheckout(page, '5.00');
  await page.getByRole('button', { name: 'Terminate' }).click();
  await expect(page.locator('#payment-status')).toHaveText('failed');

  await startCheckout(page, '7.00');
  await page.getByLabel('The card asks for a PIN').check();
  await page.getByRole('button', { name: 'Present card' }).click();
  await expect(page.locator('#simulator-note')).toContainText('waiting for pin');
  await expect(page.locator('#payment-status')).toHaveText(/^pending/);
  await page.getByRole('button', { name: 'Enter PIN' }).click();
  await expect(page.locator('#payment-status')).toHaveText('successful');
  expect(problems).toEqual([]);
});

test('an offline reader refuses a checkout and the page says why', async ({
  page,
  shop,
  quiet,
}) => {
  quiet.failed(422);
  await openWithReader(page, shop);
  await page.getByRole('button', { name: 'Take the reader offline' }).click();
  await expect(page.locator('#simulator-note')).toContainText('offline');
  await page.getByRole('button', { name: 'Start checkout' }).click();
  await expect(page.getByRole('alert')).toContainText('READER_OFFLINE');
  await page.getByRole('button', { name: 'Bring it back online' }).click();
  await startCheckout(page, '3.00');
  await page.getByRole('button', { name: 'Terminate' }).click();
  await expect(page.locator('#payment-status')).toHaveText('failed');
});

test('a bad amount is a 400 naming the field, and the page shows it', async ({
  page,
  shop,
  quiet,
}) => {
  quiet.failed(400);
  await openWithReader(page, shop);
  await page.getByLabel(/^Amount/).fill('-3');
  await page.getByRole('button', { name: 'Start checkout' }).click();
  await expect(page.getByRole('alert')).toContainText('amount must look like 12.50');
  await expect(page.getByLabel(/^Amount/)).toBeFocused();
});

test('the in-person API: no key in the page, 4xx naming the field, other origins refused', async ({
  shop,
}) => {
  const origin = new URL(shop.url).origin;
  const page = await fetch(new URL('/in-person', shop.url));
  expect(page.status).toBe(200);
  expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
  expect(await page.text()).not.toContain(shop.sandbox.apiKey);

  const post = (path: string, body: unknown, from = origin) =>
    fetch(new URL(path, shop.url), {
      method: 'POST',
      headers: { origin: from, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const added = await post('/in-person/api/simulator/readers', {});
  expect(added.status).toBe(201);
  const { reader } = (await added.json()) as { reader: { id: string } };
  const checkout = `/in-person/api/readers/${reader.id}/checkout`;

  for (const [body, field] of [
    [{}, 'amount'],
    [{ amount: 12.5 }, 'amount'],
    [{ amount: '0.00' }, 'amount'],
    [{ amount: '1.234' }, 'amount'],
  ] as const) {
    const res = await post(checkout, body);
    expect(res.status, JSON.stringify(body)).toBe(400);
    expect(await res.json()).toMatchObject({ error: { field } });
  }
  const webhook = await post('/in-person/webhook', { event_type: 'x' });
  expect(webhook.status).toBe(400);
  expect(await webhook.json()).toMatchObject({ error: { field: 'id' } });

  expect((await post(checkout, { amount: '1.00' }, 'https://evil.example')).status).toBe(403);
  expect((await post('/in-person/api/readers/rdr_NOPE/checkout', { amount: '1.00' })).status).toBe(
    404,
  );
  const notWaiting = await post(`/in-person/api/readers/${reader.id}/terminate`, {});
  expect(notWaiting.status).toBe(422);
  expect(await notWaiting.json()).toMatchObject({ error: { code: 'READER_NOT_WAITING' } });
});
