// Screenshots of the sandbox dashboard for docs/screenshots/: a real sandbox on a free
// loopback port with a few checkouts (paid, waiting at 3DS, a boleto, expired), their webhook
// deliveries to a small receiver (one answered 503 with Retry-After first, then retried), in
// light at 1280 px and dark at 360 px.
//
//   node --import tsx scripts/dashboard-screenshots.ts
//
// It builds the dashboard's script first (dist/sandbox-dashboard), and fails when the page
// reports a CSP violation or scrolls sideways.

import { mkdirSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { build } from 'vite';
import { createSandbox, type Sandbox } from '../src/sandbox/index.ts';
// @ts-expect-error -- a plain .mjs helper shared with the test runners; it has no type declarations
import { chromiumArgs, chromiumPath } from './browser.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const outDir = join(root, 'docs/screenshots');

/**
 * Answers its first notification 503 with `Retry-After: 1`, 204 after: one delivery shows a
 * retry, when it was due and what the answer asked for.
 */
async function receiver(): Promise<{ url: string; close(): void }> {
  let first = true;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (first) res.writeHead(503, { 'retry-after': '1' }).end();
      else res.writeHead(204).end();
      first = false;
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/webhooks`, close: () => server.close() };
}

async function seed(sandbox: Sandbox, webhook: string): Promise<void> {
  const call = async (method: string, path: string, body?: unknown, requestId?: string) => {
    const res = await fetch(`${sandbox.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${sandbox.apiKey}`,
        'content-type': 'application/json',
        ...(requestId && { 'x-request-id': requestId }),
      },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    return (await res.json().catch(() => ({}))) as { id: string };
  };
  const checkout = (reference: string, amount: number, currency = 'EUR') =>
    call(
      'POST',
      '/v0.1/checkouts',
      {
        checkout_reference: reference,
        amount,
        currency,
        merchant_code: sandbox.merchantCode,
        description: `Order ${reference}`,
        return_url: webhook,
      },
      `shop-${reference}`,
    );
  const card = (number: string) => ({
    payment_type: 'card',
    card: {
      name: 'Ada Lovelace',
      number,
      expiry_month: '12',
      expiry_year: String(new Date().getUTCFullYear() + 3),
      cvv: '123',
      last_4_digits: number.slice(-4),
      type: 'VISA',
    },
  });
  const expired = await checkout('order-1001', 12);
  await call('DELETE', `/v0.1/checkouts/${expired.id}`);
  const boleto = await checkout('order-1002', 89.9, 'BRL');
  await call('PUT', `/v0.1/checkouts/${boleto.id}`, { payment_type: 'boleto' });
  const challenged = await checkout('order-1003', 42);
  await call('PUT', `/v0.1/checkouts/${challenged.id}`, card('4200000000000042'));
  const paid = await checkout('order-1004', 25);
  await call('PUT', `/v0.1/checkouts/${paid.id}`, card('4200000000000091'));
  await call('POST', '/sandbox/webhook-faults', { kind: 'delay', delayMs: 30_000, times: 2 });
  // Wait until both deliveries have been answered (the first after its retry).
  for (;;) {
    const res = await fetch(`${sandbox.url}/sandbox/webhook-deliveries`, {
      headers: { authorization: `Bearer ${sandbox.apiKey}` },
    });
    const deliveries = (await res.json()) as { state: string }[];
    if (deliveries.filter((d) => d.state === 'delivered').length >= 2) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function main(): Promise<void> {
  await build({ root, configFile: join(root, 'vite.dashboard.config.ts'), logLevel: 'error' });
  const hooks = await receiver();
  const sandbox = await createSandbox({ webhook: { initialDelayMs: 100 } });
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: chromiumArgs });
  const problems: string[] = [];
  try {
    await seed(sandbox, hooks.url);
    mkdirSync(outDir, { recursive: true });
    for (const [scheme, width, section] of [
      ['light', 1280, 'checkouts'],
      ['light', 1280, 'webhooks'],
      ['dark', 360, 'checkouts'],
    ] as const) {
      const context = await browser.newContext({
        viewport: { width, height: 900 },
        colorScheme: scheme,
        deviceScaleFactor: width < 600 ? 2 : 1,
      });
      const page = await context.newPage();
      page.on('console', (message) => {
        if (message.type() === 'error') problems.push(`${section}: ${message.text()}`);
      });
      await page.goto(`${sandbox.url}/#${section}`);
      await page.getByRole('status').filter({ hasText: 'Live' }).waitFor();
      await page.getByRole('heading', { level: 2 }).first().waitFor();
      // The retried delivery's first attempt says when the next was due, and why.
      if (section === 'webhooks') {
        await page.getByText(/; next .+ \(Retry-After: 1\)$/).waitFor({ timeout: 5_000 });
      }
      const file = join(outDir, `sandbox-dashboard-${section}-${scheme}-${width}.png`);
      await page.screenshot({ path: file, fullPage: width < 600 });
      const sideways = await page.evaluate(
        () => document.documentElement.scrollWidth > window.innerWidth,
      );
      if (sideways) problems.push(`${file}: scrolls sideways at ${width} px`);
      console.log(`wrote ${file}`);
      await context.close();
    }
  } finally {
    await browser.close();
    await sandbox.close();
    hooks.close();
  }
  if (problems.length > 0) {
    console.error(problems.join('\n'));
    process.exitCode = 1;
  }
}

await main();
