// The sandbox dashboard in a real browser, against a real sandbox and a tiny webhook receiver
// on free loopback ports: what happens through the API shows up live (no reload), deliveries
// show the receiver's answer, Replay and webhook faults act on the real receiver, and the
// page passes axe, fits 360 px, works in dark mode, by keyboard and under its strict CSP.

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.ts';
import { scaled } from '../shared/until.ts';

interface Receiver {
  url: string;
  bodies: { event_type: string; id: string }[];
  /** Answers to give first, in order; then 202. */
  replies: { status: number; headers: Record<string, string> }[];
  close(): Promise<void>;
}

/** Answers every notification 202 (after any `replies`) and keeps its body. */
async function startReceiver(): Promise<Receiver> {
  const bodies: Receiver['bodies'] = [];
  const replies: Receiver['replies'] = [];
  const server = createServer(async (req, res) => {
    let text = '';
    for await (const chunk of req) text += String(chunk);
    bodies.push(JSON.parse(text) as Receiver['bodies'][number]);
    const reply = replies.shift() ?? { status: 202, headers: {} };
    res.writeHead(reply.status, reply.headers).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    bodies,
    replies,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

let sandbox: Sandbox;
let receiver: Receiver;
let order = 0;

test.beforeAll(async () => {
  sandbox = await createSandbox({ port: 0 });
  receiver = await startReceiver();
});
test.afterAll(async () => {
  await sandbox.close();
  await receiver.close();
});
test.beforeEach(async () => {
  sandbox.reset();
  receiver.bodies.length = 0;
  receiver.replies.length = 0;
});

async function api(method: string, path: string, body?: unknown, requestId?: string) {
  const res = await fetch(new URL(path, sandbox.url), {
    method,
    headers: {
      authorization: `Bearer ${sandbox.apiKey}`,
      ...(body !== undefined && { 'content-type': 'application/json' }),
      ...(requestId !== undefined && { 'x-request-id': requestId }),
    },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  return (await res.json().catch(() => null)) as Record<string, unknown> | null;
}

/** A checkout created and paid by card through the provider API: its id and final status. */
async function payByCard(checkout: {
  amount: number;
  currency: string;
  checkout_reference?: string;
  return_url?: string;
}): Promise<{ id: string; status: unknown }> {
  const created = await api('POST', '/v0.1/checkouts', {
    checkout_reference: `e2e-order-${++order}`,
    merchant_code: sandbox.merchantCode,
    ...checkout,
  });
  const id = String(created?.id);
  const paid = await api('PUT', `/v0.1/checkouts/${id}`, {
    payment_type: 'card',
    card: {
      name: 'Ada Lovelace',
      number: '4200000000000091',
      expiry_month: '12',
      expiry_year: String(new Date().getUTCFullYear() + 3),
      cvv: '123',
      last_4_digits: '0091',
      type: 'VISA',
    },
  });
  return { id, status: paid?.status };
}

/** A checkout created and paid through the provider API; its notification goes to the receiver. */
async function paidCheckout(
  reference = `e2e-order-${++order}`,
): Promise<{ id: string; reference: string }> {
  const { id, status } = await payByCard({
    checkout_reference: reference,
    amount: 25,
    currency: 'EUR',
    return_url: receiver.url,
  });
  expect(status).toBe('PAID');
  return { id, reference };
}

/** Console errors, uncaught errors and CSP violations from the page's first script on. */
async function watch(page: Page): Promise<string[]> {
  const problems: string[] = [];
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      console.error(`CSP violation: ${event.effectiveDirective} blocked ${event.blockedURI}`);
    });
  });
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`${response.status()} ${response.url()}`);
  });
  return problems;
}

async function openDashboard(page: Page, hash = ''): Promise<void> {
  await page.goto(`${sandbox.url}/${hash}`);
  await expect(page.getByRole('status').filter({ hasText: 'Live' })).toBeVisible();
}

const checkoutItem = (page: Page, reference: string) =>
  page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: reference }) });

async function axeViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')}`));
}

test('a checkout paid through the API shows up live; its delivery shows the answer; Replay resends it', async ({
  page,
}) => {
  const problems = await watch(page);
  let loads = 0;
  page.on('load', () => {
    loads += 1;
  });
  await openDashboard(page);
  const { id, reference } = await paidCheckout();
  // Live, without a reload (the page's loads are counted below).
  const item = checkoutItem(page, reference);
  // The first badge is the current status; the closed details hold the history.
  await expect(item.getByText('PAID', { exact: true }).first()).toBeVisible();
  await expect(item.getByText(id)).toBeVisible();

  await page.getByRole('link', { name: /^Webhooks/ }).click();
  const delivery = page.getByRole('listitem').filter({ hasText: `Checkout ${id} changed` });
  await expect(delivery.getByText('Attempt 1: HTTP 202')).toBeVisible();
  await expect(delivery.getByText('delivered', { exact: true })).toBeVisible();
  await expect.poll(() => receiver.bodies.length).toBe(1);

  await delivery.getByRole('button', { name: /^Replay/ }).click();
  await expect(page.getByRole('status').filter({ hasText: /replayed/ })).toBeVisible();
  await expect.poll(() => receiver.bodies.length).toBe(2);
  expect(receiver.bodies[1]).toEqual({ event_type: 'CHECKOUT_STATUS_CHANGED', id });
  await expect(page.getByText(/^Replay of whd_/)).toBeVisible();

  expect(loads).toBe(1);
  expect(problems).toEqual([]);
});

test("a delivery told to come back shows when its next attempt is due and the answer's Retry-After", async ({
  page,
}) => {
  const problems = await watch(page);
  receiver.replies.push({ status: 503, headers: { 'retry-after': '20' } });
  await openDashboard(page, '#webhooks');
  const { id } = await paidCheckout();
  const delivery = page.getByRole('listitem').filter({ hasText: `Checkout ${id} changed` });
  await expect(delivery.getByText('Attempt 1: HTTP 503')).toBeVisible();
  await expect(delivery.getByText(/; next .+ \(Retry-After: 20\)$/)).toBeVisible();
  await expect(delivery.getByText('pending', { exact: true })).toBeVisible();
  // Twenty seconds of sandbox time later, the retry goes out.
  await api('POST', '/sandbox/clock', { advanceMs: 20_000 });
  await expect(delivery.getByText('Attempt 2: HTTP 202')).toBeVisible();
  await expect(delivery.getByText('delivered', { exact: true })).toBeVisible();
  expect(problems).toEqual([]);
});

test('a delivery a delay fault holds says when it is due, and goes out then', async ({ page }) => {
  await api('POST', '/sandbox/webhook-faults', { kind: 'delay', delayMs: 60_000 });
  await openDashboard(page, '#webhooks');
  const { id } = await paidCheckout();
  const delivery = page.getByRole('listitem').filter({ hasText: `Checkout ${id} changed` });
  await expect(delivery.getByText(/^Not sent yet: due .+\.$/)).toBeVisible();
  await api('POST', '/sandbox/clock', { advanceMs: 60_000 });
  await expect(delivery.getByText('Attempt 1: HTTP 202')).toBeVisible();
  expect(receiver.bodies.map((b) => b.id)).toEqual([id]);
});

test('a webhook fault added in the dashboard takes effect at the receiver', async ({ page }) => {
  await openDashboard(page, '#webhooks');
  await page.getByLabel('Fault', { exact: true }).selectOption('duplicate');
  await page.getByRole('button', { name: 'Add fault' }).click();
  await expect(page.getByText('duplicate: next 1 delivery')).toBeVisible();
  const { id } = await paidCheckout();
  await expect.poll(() => receiver.bodies.length).toBe(2);
  expect(receiver.bodies.map((b) => b.id)).toEqual([id, id]);
  await expect(page.getByText('fault: duplicate')).toHaveCount(2);
  await expect(page.getByText(/^No faults/)).toBeVisible();
});

test('the clock moves forward from the dashboard; expiring and finding a request work', async ({
  page,
}) => {
  await openDashboard(page);
  const { reference } = await paidCheckout();
  order += 1;
  const pending = `e2e-order-${order}`;
  await api(
    'POST',
    '/v0.1/checkouts',
    { checkout_reference: pending, amount: 5, currency: 'EUR', merchant_code: 'MSANDBOX1' },
    'e2e-find-me',
  );
  await page.getByLabel('Move forward by').selectOption({ label: '1 hour' });
  await page.getByRole('button', { name: 'Advance clock' }).click();
  await expect(page.getByText('(+1 h ahead)')).toBeVisible();

  await checkoutItem(page, pending)
    .getByRole('button', { name: /^Expire/ })
    .click();
  await expect(
    checkoutItem(page, pending).getByText('EXPIRED', { exact: true }).first(),
  ).toBeVisible();
  await checkoutItem(page, reference)
    .getByRole('button', { name: /^Refund/ })
    .click();
  await expect(page.getByRole('status').filter({ hasText: `${reference} refunded` })).toBeVisible();

  await page.getByRole('link', { name: 'Requests' }).click();
  await page.getByLabel('Request id').fill('e2e-find-me');
  await page.getByRole('button', { name: 'Find' }).click();
  await expect(page.getByText('1 found with id e2e-find-me')).toBeVisible();
  await expect(page.getByText('POST /v0.1/checkouts')).toBeVisible();
});

test('the Readers tab switches a simulated reader on, and shows its pairing code', async ({
  page,
}) => {
  await openDashboard(page);
  await page.getByRole('link', { name: /^Readers/ }).click();
  await expect(page.getByText('No devices yet.')).toBeVisible();
  await page.getByRole('button', { name: 'Switch on a simulated reader' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: 'A simulated reader is on' }),
  ).toBeVisible();
  await expect(page.getByText(/pairing code [A-Z0-9]+/)).toBeVisible();
});

test('a card outcome keyed in the dashboard for 5.125 dinars declines that payment, not 5.13', async ({
  page,
}) => {
  await openDashboard(page);
  // The Amount field took cents only (step 0.01): the browser refused 5.125 and set nothing.
  await page.getByRole('spinbutton', { name: 'Amount' }).fill('5.125');
  await page.getByRole('button', { name: 'Set outcome' }).click();
  await expect(page.getByText('Declined at 5.125: next 1 payment')).toBeVisible();
  expect((await payByCard({ amount: 5.13, currency: 'KWD' })).status).toBe('PAID');
  expect((await payByCard({ amount: 5.125, currency: 'KWD' })).status).toBe('FAILED');
  await expect(page.getByText(/^None set/)).toBeVisible();
});

test('keyboard only: reach a section and add a fault', async ({ page }) => {
  await openDashboard(page);
  const webhooks = page.getByRole('link', { name: /^Webhooks/ });
  for (let i = 0; i < 10 && !(await webhooks.evaluate((el) => el.matches(':focus'))); i++) {
    await page.keyboard.press('Tab');
  }
  await expect(webhooks).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Webhook faults' })).toBeVisible();
  await page.getByLabel('Fault', { exact: true }).focus();
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Deliveries')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByText('drop: next 1 delivery')).toBeVisible();
});

for (const colorScheme of ['light', 'dark'] as const) {
  test(`every section passes axe and fits 360 px in the ${colorScheme} scheme`, async ({
    page,
  }) => {
    // Five axe runs: slow on a loaded machine.
    test.setTimeout(scaled(120_000));
    await page.emulateMedia({ colorScheme });
    await page.setViewportSize({ width: 360, height: 800 });
    await paidCheckout();
    await api('POST', '/v0.1/customers', { customer_id: 'cus-e2e' });
    await api('POST', '/sandbox/devices', {});
    await openDashboard(page);
    for (const section of ['Checkouts', 'Webhooks', 'Requests', 'Customers', 'Readers']) {
      await page.getByRole('link', { name: new RegExp(`^${section}`) }).click();
      await expect(page.getByRole('heading', { name: section, level: 2 })).toBeVisible();
      // Details open too: what they hold must pass as well.
      for (const summary of await page.locator('summary').all()) await summary.click();
      expect(await axeViolations(page), section).toEqual([]);
      const [scrollWidth, width] = await page.evaluate(() => [
        document.documentElement.scrollWidth,
        window.innerWidth,
      ]);
      expect(scrollWidth, `${section} scrolls sideways`).toBeLessThanOrEqual(width);
    }
    const background = await page.evaluate(
      () => getComputedStyle(document.documentElement).backgroundColor,
    );
    expect(background).toBe(colorScheme === 'dark' ? 'rgb(13, 17, 23)' : 'rgb(246, 248, 250)');
  });
}

test('at 360 px a long reference or request id wraps in the status lines', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 800 });
  // As the README's shop names a basket's checkout: a base64url hash, here with no '-' to break at.
  const { reference } = await paidCheckout(`order-${'AbCdEfGhIj'.repeat(4)}xYz`);
  const requestId = 'r'.repeat(64);
  await api('GET', '/v0.1/checkouts', undefined, requestId);
  const sideways = () => page.evaluate(() => document.documentElement.scrollWidth - innerWidth);
  await openDashboard(page);
  await checkoutItem(page, reference)
    .getByRole('button', { name: /^Refund/ })
    .click();
  await expect(page.getByRole('status').filter({ hasText: `${reference} refunded` })).toBeVisible();
  expect(await sideways(), 'the refund notice scrolls sideways').toBeLessThanOrEqual(0);
  await page.getByRole('link', { name: 'Requests' }).click();
  await page.getByLabel('Request id').fill(requestId);
  await page.getByRole('button', { name: 'Find' }).click();
  await expect(page.getByText(`1 found with id ${requestId}`)).toBeVisible();
  expect(await sideways(), 'the count scrolls sideways').toBeLessThanOrEqual(0);
});

test('off loopback the dashboard asks for the key and never shows it', async ({ page }) => {
  const asking = await createSandbox({ port: 0, dashboardAsksForKey: true });
  try {
    await page.goto(`${asking.url}/`);
    const key = page.getByLabel('Sandbox API key');
    await expect(key).toBeVisible();
    expect(await axeViolations(page)).toEqual([]);
    await key.fill('sk_test_wrong');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'invalid access token' })).toBeVisible();
    await expect(key).toHaveAttribute('aria-invalid', 'true');
    await expect(key).toHaveAccessibleDescription('invalid access token');
    await expect(key).toBeFocused();
    await expect(key).toHaveValue('');
    await key.fill(asking.apiKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Live' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Checkouts' })).toBeVisible();
    const html = await page.evaluate(() => document.documentElement.outerHTML);
    expect(html).not.toContain(asking.apiKey);
    expect(await page.evaluate(() => JSON.stringify({ ...sessionStorage, ...localStorage }))).toBe(
      '{}',
    );
  } finally {
    await asking.close();
  }
});
