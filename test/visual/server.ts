/**
 * What the screenshot suite loads: a merchant's page with the BUILT widget (dist/, as a
 * script tag loads it, its lazily loaded files beside it), the real companion handler at
 * `/payments` in front of a real sandbox, both on free loopback ports; and a page that holds
 * the merchant's page in an iframe as wide as a phone's or a tablet's screen.
 *
 * Why a frame for the width: WebKitGTK's MiniBrowser cannot be narrower than its toolbar
 * (447 px), so no window is 360 px wide; an iframe is a viewport of its own (its media
 * queries and its layout follow its width), the same in every engine, and resizing it is a
 * style change rather than a window manager's round trip.
 */
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Hono } from 'hono';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.ts';
import {
  createPaymentHandler,
  type PaymentHandlerOptions,
  type ResolvedCheckout,
  toNodeListener,
} from '../../src/server/index.ts';

const DIST = fileURLToPath(new URL('../../dist/', import.meta.url));
const PAGE_FILES = fileURLToPath(new URL('./page/', import.meta.url));

/** The provider customer whose saved card the "saved cards" state shows. */
export const SHOPPER = 'visual-shopper';

/** The widget's attributes on a page: `true` for a bare boolean attribute. */
export type Attributes = Record<string, string | true>;

export interface VisualServer {
  /** e.g. `http://127.0.0.1:41234` */
  origin: string;
  /** The page that holds the merchant's page in its iframe. */
  stageUrl: string;
  sandbox: Sandbox;
  /** Creates a checkout as the merchant's server would, and returns its page's URL. */
  page(checkout: ResolvedCheckout, attributes?: Attributes): Promise<PageUrl>;
  /** The page of a checkout that exists already (a reload, a return from the bank). */
  pageOf(checkoutId: string, attributes?: Attributes): string;
  /** A provider API call with the sandbox key, as the merchant's server would make. */
  provider(method: string, path: string, body?: unknown): Promise<Response>;
  /**
   * Holds the widget's next call of `method` to the handler's checkout routes before it reaches
   * the handler: its PUT (a payment: the widget stays "Processing…"), or its GET (the load: the
   * form stays a placeholder), until `release()`; `held` resolves once the request has arrived.
   */
  holdNext(method: 'GET' | 'PUT'): { held: Promise<void>; release(): void };
  /** An endpoint where nothing answers: a loopback port nothing listens on. */
  deadEndpoint: string;
  /**
   * Restarts the handler with its card-testing limit at one payment per client in 10 minutes,
   * and spends that one from this machine's address (the browser's too): a payment made
   * through the handler by another tab, as a card tester's script would. The browser's next
   * payment is refused, 429 with Retry-After, before the provider is called.
   */
  spendPaymentLimit(): Promise<void>;
  /**
   * Makes the provider lose the next payment of `checkoutId`: it drops the connection without
   * charging, and fails the handler's reads of the checkout after it, so the handler cannot
   * tell whether the card was charged (PROCESS_OUTCOME_UNKNOWN).
   */
  loseNextPayment(checkoutId: string): Promise<void>;
  /**
   * Starts the companion handler afresh, with a new memory store, as a restarted server does:
   * the checkouts stay at the provider, the steps they left open are forgotten; and with the
   * suite's settings (no rate limit).
   */
  restartHandler(): void;
  close(): Promise<void>;
}

export interface PageUrl {
  url: string;
  checkoutId: string;
}

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
};

/** A file under `root`, or undefined when the path leaves it or names nothing. */
async function fileUnder(root: string, path: string): Promise<Response | undefined> {
  const file = normalize(join(root, decodeURIComponent(path)));
  if (!file.startsWith(root.endsWith(sep) ? root : root + sep)) return undefined;
  try {
    const body = await readFile(file);
    return new Response(body, {
      headers: { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' },
    });
  } catch {
    return undefined;
  }
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function merchantPage(checkoutId: string, attributes: Attributes): string {
  const all: Attributes = { 'checkout-id': checkoutId, ...attributes };
  const attrs = Object.entries(all)
    .map(([name, value]) => (value === true ? name : `${name}="${escapeHtml(value)}"`))
    .join(' ');
  return `<!doctype html>
<html lang="en-GB">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Checkout</title>
<link rel="stylesheet" href="/visual/page.css">
<script src="/visual/page.js"></script>
<script src="/dist/payment-widget.iife.js"></script>
</head>
<body>
<main><payment-widget ${attrs}></payment-widget></main>
</body>
</html>`;
}

const STAGE = `<!doctype html>
<html lang="en-GB">
<head><meta charset="utf-8"><title>Stage</title><link rel="stylesheet" href="/visual/stage.css"></head>
<body><iframe title="The merchant's page" src="about:blank"></iframe></body>
</html>`;

/** A card the sandbox pays, as the widget sends it to the handler. */
const PAID_CARD = {
  name: 'Ada Lovelace',
  number: '4200000000000091',
  expiry_month: '12',
  expiry_year: '2034',
  cvv: '123',
  last_4_digits: '0091',
  type: 'VISA',
};

/** A loopback port nothing listens on (one that was free a moment ago). */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', () => resolve()));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

export async function startVisualServer(): Promise<VisualServer> {
  const sandbox = await createSandbox({ port: 0 });
  const server: Server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;

  const handler = (rateLimit: PaymentHandlerOptions['rateLimit'] = false) =>
    createPaymentHandler({
      provider: {
        baseUrl: sandbox.url,
        apiKey: sandbox.apiKey,
        merchantCode: sandbox.merchantCode,
      },
      publicUrl: `${origin}/payments`,
      allowedOrigins: [origin],
      resultPages: { success: '/shop', failure: '/shop' },
      // Every checkout is made by page() below, never from the browser's order.
      resolveCheckout: () => {
        throw new Error('the screenshot pages create their checkouts on the server');
      },
      authorizeCustomer: (_request, customerId) => customerId === SHOPPER,
      // One client pays a hundred times a run: the card-testing limits would refuse it.
      rateLimit,
      logger: () => {},
    });
  let payments = handler();

  let hold: { method: string; arrived(): void; released: Promise<void> } | undefined;
  const app = new Hono();
  app.all('/payments/*', async (c) => {
    const request = c.req.raw;
    if (hold?.method === request.method && c.req.path.startsWith('/payments/checkouts/')) {
      const { arrived, released } = hold;
      hold = undefined;
      arrived();
      await released;
    }
    return payments(request, c.env);
  });
  app.get('/stage', (c) => c.html(STAGE));
  app.get('/shop', (c) => {
    const id = c.req.query('checkout_id') ?? '';
    const attributes = JSON.parse(c.req.query('attributes') ?? '{}') as Attributes;
    return c.html(merchantPage(id, attributes));
  });
  app.get('/dist/*', async (c) => (await fileUnder(DIST, c.req.path.slice(6))) ?? c.notFound());
  app.get(
    '/visual/*',
    async (c) => (await fileUnder(PAGE_FILES, c.req.path.slice(8))) ?? c.notFound(),
  );
  server.on(
    'request',
    toNodeListener((request, env) => app.fetch(request, env)),
  );

  const provider = (method: string, path: string, body?: unknown) =>
    fetch(new URL(path, sandbox.url), {
      method,
      headers: {
        authorization: `Bearer ${sandbox.apiKey}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });

  const pageOf = (checkoutId: string, attributes: Attributes = {}) =>
    `${origin}/shop?${new URLSearchParams({
      checkout_id: checkoutId,
      attributes: JSON.stringify(attributes),
    })}`;

  return {
    origin,
    stageUrl: `${origin}/stage`,
    sandbox,
    pageOf,
    async page(checkout, attributes = {}) {
      const { id } = await payments.createCheckout(checkout);
      return { url: pageOf(id, attributes), checkoutId: id };
    },
    provider,
    holdNext(method) {
      let arrived = () => {};
      let release = () => {};
      const held = new Promise<void>((resolve) => {
        arrived = resolve;
      });
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      hold = { method, arrived, released };
      return { held, release };
    },
    deadEndpoint: `http://127.0.0.1:${await closedPort()}/payments`,
    async spendPaymentLimit() {
      payments = handler({
        paymentsPerClient: { limit: 1, windowMs: 10 * 60_000 },
        checkoutsPerClient: false,
        paymentsPerCheckout: false,
        reportsPerClient: false,
      });
      const { id } = await payments.createCheckout({
        amount: 10,
        currency: 'EUR',
        redirect: false,
      });
      const answer = await fetch(`${origin}/payments/checkouts/${id}`, {
        method: 'PUT',
        headers: { origin, 'content-type': 'application/json' },
        body: JSON.stringify({ payment_type: 'card', card: PAID_CARD }),
      });
      if (!answer.ok)
        throw new Error(`spending the limit: ${answer.status} ${await answer.text()}`);
    },
    async loseNextPayment(checkoutId) {
      const path = `/v0.1/checkouts/${checkoutId}`;
      // The handler reads the checkout back once and retries twice (provider.retries).
      for (const fault of [
        { method: 'PUT', path, kind: 'drop' },
        { method: 'GET', path, kind: 'error', status: 503, times: 3 },
      ]) {
        const added = await provider('POST', '/sandbox/faults', fault);
        if (!added.ok) throw new Error(`a sandbox fault: ${added.status} ${await added.text()}`);
      }
    },
    restartHandler() {
      payments = handler();
    },
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await sandbox.close();
    },
  };
}
