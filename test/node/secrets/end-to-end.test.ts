// Secrets stay where they belong. Three places are scanned for the provider API key and for
// full card numbers (the sandbox's test cards, digits alone or grouped as typed):
// 1. the browser bundles in dist/ (what every shopper downloads);
// 2. every response (status line, headers, body) of an end-to-end-like run: the example
//    shop and the sandbox on loopback sockets, a browser stood in for by fetch, paying by
//    card, by card with 3DS (iframe and full-page), by iDEAL, declined and invalid;
// 3. every log line the shop, the handler and the sandbox emit meanwhile, console included.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { type ServerExample, startServerExample } from '../../../server-example/index.ts';
import { createSandbox, type Sandbox } from '../../../src/sandbox/index.ts';
import { until } from '../../shared/until.ts';
import { cardBody, cardBodyWith } from '../support/cards.ts';

const DIST = fileURLToPath(new URL('../../../dist/', import.meta.url));
/** The sandbox's outcome cards plus the ones the provider documents. */
const PANS = [
  '4200000000000091',
  '4200000000000026',
  '5200000000000007',
  '5200000000000056',
  '4200000000000042',
  '4200000000000067',
  '5200000000000015',
  '5200000000000049',
  '4012001037461114',
  '5434580000000006',
];
// A key no page could contain by accident, unlike the sandbox's default.
const API_KEY = `sk_test_e2e_${randomBytes(12).toString('hex')}`;

function leaks(text: string): string[] {
  const found: string[] = [];
  if (text.includes(API_KEY)) found.push('the API key');
  if (text.includes(API_KEY.slice('sk_test_'.length))) found.push('the secret part of the key');
  for (const pan of PANS) {
    const grouped = pan.replace(/(\d{4})(?=\d)/g, '$1 ');
    if (text.includes(pan) || text.includes(grouped)) found.push(`card ${pan}`);
  }
  return found;
}

/**
 * The demo shop's page prints a table of the sandbox's public test cards for the person
 * trying it: that static text comes from demo/shop.html, not from anything typed. Lines
 * found verbatim in that template are left out of the scan; everything else is scanned.
 */
const TEMPLATE_LINES = new Set(
  readFileSync(fileURLToPath(new URL('../../../demo/shop.html', import.meta.url)), 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== ''),
);
const withoutTemplate = (text: string) =>
  text
    .split('\n')
    .filter((line) => !TEMPLATE_LINES.has(line.trim()))
    .join('\n');

function assertClean(what: string, texts: string[]) {
  for (const text of texts.map(withoutTemplate)) {
    const found = leaks(text);
    assert.deepEqual(found, [], `${what} leaks ${found.join(', ')}: ${text.slice(0, 400)}`);
  }
}

test('the browser bundles in dist/ hold no key and no card number', () => {
  assert.ok(
    existsSync(join(DIST, 'payment-widget.iife.js')),
    'dist/ is not built: run `npm run build` first (npm test does)',
  );
  // dist/node/ holds the server-side builds (the sandbox knows its own default key and test
  // cards by design), and dist/site/ the try-it site, whose Service Worker runs that same
  // sandbox and whose banner lists its test cards (it is not in the package); everything
  // else is what a merchant's shoppers' browsers download.
  const files = (readdirSync(DIST, { recursive: true }) as string[]).filter(
    (name) =>
      /\.(m?js|css|map|html)$/.test(name) && !name.startsWith('node') && !name.startsWith('site'),
  );
  assert.ok(files.length >= 2, `expected the ESM and IIFE builds, found ${files.join(', ')}`);
  for (const name of files) {
    const text = readFileSync(join(DIST, name), 'utf8');
    assertClean(`dist/${name}`, [text]);
    // No key of any kind is baked into a bundle.
    assert.ok(!/\bsk_(test|live)_[A-Za-z0-9]/.test(text), `dist/${name} contains an sk_ key`);
  }
});

let sandbox: Sandbox;
let shop: ServerExample;
const sandboxLogs: string[] = [];
const shopLogs: string[] = [];
const consoleLines: string[] = [];
const responses: string[] = [];
const paid: string[] = [];
const consoleMethods = ['log', 'info', 'warn', 'error', 'debug'] as const;
const originalConsole = consoleMethods.map((name) => console[name]);

before(async () => {
  // Anything printed anywhere during the run is a log line too.
  for (const name of consoleMethods) {
    console[name] = (...args: unknown[]) => {
      consoleLines.push(args.map((arg) => (typeof arg === 'string' ? arg : String(arg))).join(' '));
    };
  }
  sandbox = await createSandbox({
    apiKey: API_KEY,
    webhook: { attempts: 3, initialDelayMs: 20 },
    log: (line) => sandboxLogs.push(line),
  });
  shop = await startServerExample({
    providerBaseUrl: sandbox.url,
    providerApiKey: API_KEY,
    merchantCode: sandbox.merchantCode,
    port: 0,
    log: (line) => shopLogs.push(line),
    onPaid: (checkout) => {
      if (checkout.id) paid.push(checkout.id);
    },
  });
});

after(async () => {
  consoleMethods.forEach((name, i) => {
    console[name] = originalConsole[i]!;
  });
  await shop?.close();
  await sandbox?.close();
});

/** A browser's request, recorded whole: status, every header, the body. */
async function browse(url: string, init: RequestInit = {}) {
  const res = await fetch(url, { redirect: 'manual', ...init });
  const body = await res.text();
  const headers = [...res.headers].map(([k, v]) => `${k}: ${v}`).join('\n');
  responses.push(`${init.method ?? 'GET'} ${url} -> ${res.status}\n${headers}\n\n${body}`);
  return { status: res.status, headers: res.headers, body };
}

function origin() {
  return new URL(shop.url).origin;
}

function api(method: string, path: string, body?: unknown) {
  return browse(new URL(path, shop.url).href, {
    method,
    headers: { origin: origin(), 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

/** The shop page whose checkout the server made (`checkout-id=1`), and that checkout's id. */
async function openShop(query = ''): Promise<string> {
  const named = `${query === '' ? '?' : `${query}&`}checkout-id=1`;
  const page = await browse(new URL(`/${named}`, shop.url).href);
  assert.equal(page.status, 200);
  const id = /checkout-id="([^"]+)"/.exec(page.body)?.[1];
  assert.ok(id, 'the shop page names no checkout');
  await browse(new URL('/assets/payment-widget.iife.js', shop.url).href);
  await api('GET', `/payments/payment-methods?amount=10.00&currency=EUR`);
  return id;
}

/** Follows redirects like a browser, recording each hop; answers the last page. */
async function follow(first: Awaited<ReturnType<typeof browse>>, base: string) {
  let last = first;
  let url = base;
  for (let hops = 0; hops < 5; hops += 1) {
    const location = last.status >= 300 && last.status < 400 ? last.headers.get('location') : null;
    if (location === null) break;
    url = new URL(location, url).href;
    last = await browse(url);
  }
  return last;
}

/**
 * The 3DS challenge as the widget and the shopper drive it: form POST (answered with the
 * page's GET), then a button.
 */
async function passChallenge(nextStep: { url: string; payload: Record<string, string> }) {
  const posted = await browse(nextStep.url, {
    method: 'POST',
    body: new URLSearchParams(nextStep.payload),
  });
  const page = await follow(posted, nextStep.url);
  assert.equal(page.status, 200);
  assert.match(page.body, /Complete authentication/);
  const ended = await browse(nextStep.payload.TermUrl!, {
    method: 'POST',
    body: new URLSearchParams({ MD: nextStep.payload.MD!, PaRes: 'Y' }),
  });
  return follow(ended, nextStep.payload.TermUrl!);
}

test('an end-to-end run leaks the key and card numbers into no response and no log', async () => {
  // Card, no challenge.
  const plain = await openShop('?redirect=0');
  const paidNow = await api('PUT', `/payments/checkouts/${plain}`, cardBody('4200000000000091'));
  assert.equal(paidNow.status, 200);
  await api('GET', `/payments/checkouts/${plain}`);
  // The same card again: 409, with the number in the request.
  await api('PUT', `/payments/checkouts/${plain}`, cardBody('4200000000000091'));

  // 3DS in an iframe (no redirect_url): the end page posts a message to the widget.
  const framed = await openShop('?redirect=0');
  const challenged = await api(
    'PUT',
    `/payments/checkouts/${framed}`,
    cardBody('4200000000000042'),
  );
  assert.equal(challenged.status, 202);
  const end = await passChallenge(JSON.parse(challenged.body).next_step);
  assert.equal(end.status, 200);
  await api('GET', `/payments/checkouts/${framed}`);

  // 3DS as a full-page redirect: back through /payments/return to the result page.
  const redirected = await openShop();
  const step = await api('PUT', `/payments/checkouts/${redirected}`, cardBody('5200000000000015'));
  assert.equal(step.status, 202);
  const result = await passChallenge(JSON.parse(step.body).next_step);
  assert.equal(result.status, 200);
  assert.match(result.body, new RegExp(redirected));

  // iDEAL through the bank page.
  const apm = await openShop();
  const bank = await api('PUT', `/payments/checkouts/${apm}`, {
    payment_type: 'ideal',
    personal_details: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' },
  });
  assert.equal(bank.status, 202);
  const full = JSON.parse(bank.body).next_step.full as string;
  await browse(full);
  const approved = await browse(full.split('?')[0]!, {
    method: 'POST',
    body: new URLSearchParams({
      tx: new URL(full).searchParams.get('tx') ?? '',
      result: 'approve',
    }),
  });
  const landed = await follow(approved, full);
  assert.equal(landed.status, 200);

  // Failures: a 3DS technical error, a declined amount, invalid fields around a number.
  const techError = await openShop('?redirect=0');
  await api('PUT', `/payments/checkouts/${techError}`, cardBody('4012001037461114'));
  const declined = await openShop('?redirect=0&amount=11.00');
  await api('PUT', `/payments/checkouts/${declined}`, cardBody('5200000000000007'));
  const invalid = await openShop('?redirect=0');
  for (const broken of [
    cardBodyWith('5200000000000056', { expiry_month: '13' }),
    cardBodyWith('5200000000000056', { last_4_digits: '1234' }),
    cardBodyWith('5434580000000006', { type: 'NOPE' }),
    cardBodyWith('4200000000000067', { cvv: '12345' }),
    { ...cardBody('4200000000000026'), payment_type: 'cash' },
  ]) {
    const refused = await api('PUT', `/payments/checkouts/${invalid}`, broken);
    assert.equal(refused.status, 400, refused.body);
  }
  // A body that is not even JSON, with a number inside.
  await browse(new URL(`/payments/checkouts/${invalid}`, shop.url).href, {
    method: 'PUT',
    headers: { origin: origin(), 'content-type': 'application/json' },
    body: '{"card":{"number":"4200000000000091"',
  });

  // The provider's webhooks reach the shop; wait until the paid checkouts were reported.
  await until(
    () => `onPaid for ${framed}, ${redirected} and ${apm}; it saw only ${paid.join(', ')}`,
    () => paid.includes(framed) && paid.includes(redirected) && paid.includes(apm),
  );

  assert.ok(responses.length > 30, `only ${responses.length} responses recorded`);
  // The sandbox logs a delivery once its answer is in, which may come after the hooks ran.
  await until('a webhook delivery in the sandbox log', () =>
    sandboxLogs.some((line) => line.startsWith('webhook ')),
  );
  assert.ok(
    sandboxLogs.some((line) => line.startsWith('webhook ')),
    'no webhook was logged',
  );
  assert.ok(
    shopLogs.some((line) => line.includes('paid')),
    'the shop logged no payment',
  );
  assertClean('a response', responses);
  assertClean('a sandbox log line', sandboxLogs);
  assertClean('a shop log line', shopLogs);
  assertClean('a console line', consoleLines);
  // And the key in particular is in no HTML page, even the shop's own.
  assert.ok(
    !responses.some((text) => text.includes('sk_test_')),
    'a response names an sk_test_ key',
  );
});
