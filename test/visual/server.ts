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
   * Holds the next payment the widget sends (its PUT to the handler) before it reaches the
   * handler, so the widget stays "Processing…" until `release()`; `held` resolves once the
   * request has arrived.
   */
  holdNextPayment(): { held: Promise<void>; release(): void };
  /**
   * Starts the companion handler afresh, with a new memory store, as a restarted server does:
   * the checkouts stay at the provider, the steps they left open are forgotten.
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

export async function startVisualServer(): Promise<VisualServer> {
  const sandbox = await createSandbox({ port: 0 });
  const server: Server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;

  const handler = () =>
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
      rateLimit: false,
      logger: () => {},
    });
  let payments = handler();

  let hold: { arrived(): void; released: Promise<void> } | undefined;
  const app = new Hono();
  app.all('/payments/*', async (c) => {
    const request = c.req.raw;
    if (request.method === 'PUT' && hold) {
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
    provider: (method, path, body) =>
      fetch(new URL(path, sandbox.url), {
        method,
        headers: {
          authorization: `Bearer ${sandbox.apiKey}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }),
    holdNextPayment() {
      let arrived = () => {};
      let release = () => {};
      const held = new Promise<void>((resolve) => {
        arrived = resolve;
      });
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      hold = { arrived, released };
      return { held, release };
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
