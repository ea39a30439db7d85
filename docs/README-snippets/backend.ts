import { createHash, randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { extname, join, resolve, sep } from 'node:path';
import { createPaymentHandler, PaymentHandlerError, toNodeListener } from 'payment-widget/server';

function setting(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`Set ${name} (the sandbox prints all three)`);
  return value;
}

const port = Number(process.env.PORT ?? 3000);
const origin = `http://127.0.0.1:${port}`;

// Your catalogue: the browser names a product, the server decides the price.
const PRICES: Record<string, { amount: number; currency: string; description: string }> = {
  poster: { amount: 10, currency: 'EUR', description: 'Poster' },
};

// The shopper's basket: a random id in a cookie. A hash of it is its checkout's reference,
// so a reload, a second tab or a return from the bank's app finds the basket's one checkout
// (anyone with a checkout's id can read its reference: never the cookie itself).
const basketOf = (request: Request) =>
  /(?:^|;\s*)basket=([\w-]{36})/.exec(request.headers.get('cookie') ?? '')?.[1];
const referenceOf = (basket = '') =>
  basket && `order-${createHash('sha256').update(basket).digest('base64url')}`;
const newBasket = () => `basket=${randomUUID()}; Path=/; HttpOnly; SameSite=Lax`;

const payments = createPaymentHandler({
  provider: {
    baseUrl: setting('PROVIDER_BASE_URL'), // the sandbox: http://127.0.0.1:4010
    apiKey: setting('PROVIDER_API_KEY'), // stays on the server
    merchantCode: setting('MERCHANT_CODE'),
  },
  publicUrl: `${origin}/payments`,
  allowedOrigins: [origin],
  resultPages: { success: '/result', failure: '/result' },
  resolveCheckout(order, request) {
    const sku = typeof order === 'object' && order !== null && 'sku' in order ? order.sku : '';
    const price = typeof sku === 'string' && Object.hasOwn(PRICES, sku) ? PRICES[sku] : undefined;
    if (!price) throw new PaymentHandlerError(400, 'INVALID', 'Unknown product', 'order.sku');
    const reference = referenceOf(basketOf(request));
    return reference ? { ...price, reference } : price;
  },
  // "Try another card" on a result page (its link may be anyone's) acts only for its basket.
  authorizeBasket: (request, reference) => reference === referenceOf(basketOf(request)),
  hooks: {
    onPaid(checkout) {
      console.log(`paid: ${checkout.checkout_reference} (checkout ${checkout.id})`);
    },
  },
});

// The shop's pages (public/, index.html at /), and the widget's files at /assets/.
const ROOTS = { '/': resolve('public'), '/assets/': resolve('node_modules/payment-widget/dist') };
const TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
};

async function file(root: string, path: string): Promise<Response> {
  const full = resolve(join(root, path === '' ? 'index.html' : path));
  if (!full.startsWith(root + sep)) return new Response('Not found', { status: 404 });
  try {
    const type = `${TYPES[extname(full)] ?? 'application/octet-stream'}; charset=utf-8`;
    return new Response(await readFile(full), { headers: { 'content-type': type } });
  } catch {
    return new Response('Not found', { status: 404 });
  }
}

// Where a full-page flow (3DS on the bank's page, iDEAL, Bancontact) comes back, with
// ?checkout_id=: the widget shows that checkout's outcome, and after a failure why, with
// "Try another card".
function resultPage(checkoutId: string | null): Response {
  if (checkoutId === null || !/^[\w-]{1,64}$/.test(checkoutId)) {
    return new Response('Not found', { status: 404 });
  }
  const html = `<!doctype html>
<html lang="en"><meta charset="utf-8"><title>Your payment</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<script src="/assets/payment-widget.iife.js"></script>
<payment-widget checkout-id="${checkoutId}" endpoint="/payments"></payment-widget>`;
  return new Response(html, { headers: { 'content-type': 'text/html; charset=utf-8' } });
}

// "Buy again" on a paid page: a new basket, so the shopper's next order is a new checkout.
// Only from the shop's own pages: another site must not swap a shopper's basket.
function buyAgain(request: Request): Response {
  if (request.headers.get('origin') !== origin) return new Response('Forbidden', { status: 403 });
  return new Response(null, { status: 204, headers: { 'set-cookie': newBasket() } });
}

const server = createServer(
  toNodeListener(async (request, env) => {
    const { pathname, searchParams } = new URL(request.url);
    if (pathname.startsWith('/payments/')) return payments(request, env);
    if (pathname === '/result') return resultPage(searchParams.get('checkout_id'));
    if (pathname === '/basket' && request.method === 'POST') return buyAgain(request);
    if (pathname.startsWith('/assets/')) return file(ROOTS['/assets/'], pathname.slice(8));
    const found = await file(ROOTS['/'], pathname.slice(1));
    // An app's route (/checkout) is its index.html.
    const page = found.status === 404 && !extname(pathname) ? await file(ROOTS['/'], '') : found;
    const html = page.headers.get('content-type')?.startsWith('text/html');
    if (html && basketOf(request) === undefined) {
      page.headers.append('set-cookie', newBasket());
    }
    return page;
  }),
);
server.listen(port, '127.0.0.1', () => console.log(`listening on ${origin}`));

// Orders whose every webhook was lost: every minute, and at start (a wrong key is logged at once).
// It rejects while the store is away (Redis down): one line says why; the next call retries.
// unref(): the timer never keeps a stopping process alive (a server closed on Ctrl-C).
const reconcile = () =>
  payments.reconcile().catch((error) => {
    console.warn(`payment-widget: reconcile() failed: ${error.message}`);
  });
setInterval(reconcile, 60_000).unref();
reconcile();
