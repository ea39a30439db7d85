/**
 * A small merchant backend on node:http: the companion handler mounted at
 * `/payments`, a shop page per build of the widget, a result page, and the
 * files those pages load. The provider key stays in this process; pages only
 * ever see checkout ids.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Context, Hono } from 'hono';
import { mount } from 'hono/mount';
import type { Checkout } from 'payment-widget/schemas';
import {
  createPaymentHandler,
  createProviderClient,
  type HookOptions,
  isLoopbackHost,
  type LogEntry,
  type RateLimitOptions,
  toNodeListener,
} from 'payment-widget/server';
import { cookieBaskets, randomSecret } from './basket.ts';
import { answerClientErrors, empty, errorJson, REQUEST_TIMEOUTS } from './http.ts';
import { createInPerson } from './in-person/index.ts';
import { ownsShopBasket, resolveShopOrder } from './orders.ts';
import { signedQuotes } from './quote.ts';
import { connectRedisStore } from './redis.ts';
import { DEMO_CUSTOMER_ID, hasSession } from './session.ts';
import { createShopPages, shopRoutes } from './shop-page.ts';
import { compressPages, serveFile } from './static.ts';
import { render } from './templates.ts';

export { DEMO_CUSTOMER_ID };

export interface ServerExampleOptions {
  /** The provider's base URL, e.g. the sandbox's `http://127.0.0.1:4010`. */
  providerBaseUrl: string;
  /** Secret: used towards the provider only. */
  providerApiKey: string;
  merchantCode: string;
  /** Default 3000; 0 picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** One line per request and per payment outcome; never card data or the key. */
  log?: (line: string) => void;
  onPaid?(checkout: Checkout): unknown;
  onFailed?(checkout: Checkout): unknown;
  /** Where the widget build is. Default: this package's `dist/`. */
  assetsDir?: string;
  /** Where the built React and Vue examples are. Default: `examples/dist/`. */
  examplesDir?: string;
  /**
   * Show the sandbox's device simulator on `/in-person` (switch on and pair a
   * simulated reader, present a card, enter a PIN). Default: on when the
   * provider is on a loopback host with an `sk_test_` key, i.e. the sandbox.
   */
  readerSimulator?: boolean;
  /**
   * A Redis (`redis://host:6379`) shared by every instance of the shop, so each order's
   * onPaid/onFailed runs once between them. Default: none, the claims stay in this process.
   */
  redisUrl?: string;
  /**
   * How often the shop asks the provider about orders no webhook or return page settled
   * (`handler.reconcile()`). Default 60 000 ms; 0 turns it off.
   */
  reconcileIntervalMs?: number;
  /** How the hooks run, when a test or a variant of the shop sets it (e.g. `waitMs`). */
  hooks?: Pick<HookOptions, 'waitMs' | 'leaseMs'>;
  /** The handler's `rateLimit`. Default: the handler's defaults. */
  rateLimit?: RateLimitOptions;
  /**
   * Signs the basket cookies and the pages' quotes. Default: random per start (a restart
   * forgets the baskets, and a page loaded before it is priced again on a reload).
   */
  basketSecret?: string;
}

export interface ServerExample {
  /** e.g. `http://127.0.0.1:3000/` */
  url: string;
  close(): Promise<void>;
}

/** A built locale file: a tag like `de-CH`, nothing that could name another path. */
const LOCALE_FILE = /^\/assets\/locales\/[a-z]{2,3}-[A-Z]{2}\.js$/;

export async function startServerExample(options: ServerExampleOptions): Promise<ServerExample> {
  const log = options.log ?? (() => {});
  // One secret signs the basket cookies and the pages' quotes (quote.ts).
  const secret = options.basketSecret ?? randomSecret();
  const baskets = cookieBaskets(secret);
  const quotes = signedQuotes(secret);
  const assetsDir = options.assetsDir ?? fileURLToPath(new URL('../dist/', import.meta.url));
  const examplesDir =
    options.examplesDir ?? fileURLToPath(new URL('../examples/dist/', import.meta.url));
  const demoDir = fileURLToPath(new URL('../demo/', import.meta.url));

  const redis =
    options.redisUrl === undefined ? undefined : await connectRedisStore(options.redisUrl, log);
  if (redis !== undefined) log('claims of the payment hooks shared in Redis');

  // Listen first: the handler needs the public URL, which needs the port.
  // No Host in HTTP/1.1: Node's bare 400 is left to the listener, which refuses it in JSON.
  // A client too slow to send its request is cut off (REQUEST_TIMEOUTS), answered 408.
  const server = createServer({ requireHostHeader: false, ...REQUEST_TIMEOUTS });
  answerClientErrors(server);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 3000, options.host ?? '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    await redis?.close();
    throw error;
  }
  const address = server.address() as AddressInfo;
  const origin = `http://${address.address}:${address.port}`;
  /** The shop's pages are served at both names of the loopback address. */
  const shopOrigins = [origin, `http://localhost:${address.port}`];
  const paymentsUrl = `${origin}/payments`;

  const provider = createProviderClient({
    baseUrl: options.providerBaseUrl,
    apiKey: options.providerApiKey,
  });

  const payments = createPaymentHandler({
    provider: {
      baseUrl: options.providerBaseUrl,
      apiKey: options.providerApiKey,
      merchantCode: options.merchantCode,
    },
    basePath: '/payments',
    publicUrl: paymentsUrl,
    allowedOrigins: shopOrigins,
    resultPages: {
      success: '/result',
      failure: '/result',
    },
    // Orders the widget sends itself (the shop's pages, the React and Vue pages): priced
    // here, and the shopper's basket, when they have one, is the checkout's reference.
    resolveCheckout: resolveShopOrder({ baskets, quotes }),
    authorizeBasket: ownsShopBasket(baskets),
    authorizeCustomer: (request, customerId) =>
      customerId === DEMO_CUSTOMER_ID && hasSession(request),
    hooks: {
      ...options.hooks,
      onPaid: (checkout) => {
        log(`order ${checkout.checkout_reference} paid (checkout ${checkout.id})`);
        return options.onPaid?.(checkout);
      },
      onFailed: (checkout) => {
        log(`order ${checkout.checkout_reference} ${checkout.status} (checkout ${checkout.id})`);
        return options.onFailed?.(checkout);
      },
      // The shop's pages report what their policy blocked (POST /payments/reports): a real shop
      // would alert someone (docs/pci.md, 11.6.1).
      onPageViolation: (v) => {
        const what =
          v.kind === 'integrity'
            ? `${v.blockedUrl} failed its integrity check`
            : `${v.directive} blocked ${v.blockedUrl}${v.sample === undefined ? '' : ` (${v.sample})`}`;
        log(`page violation: ${what} on ${v.documentUrl}`);
      },
    },
    logger: (entry: LogEntry) => {
      if (entry.level !== 'info') log(`payments ${entry.level}: ${entry.message}`);
    },
    ...(redis === undefined ? {} : { store: redis.store }),
    ...(options.rateLimit === undefined ? {} : { rateLimit: options.rateLimit }),
  });

  const simulator =
    options.readerSimulator ??
    (isLoopbackHost(new URL(options.providerBaseUrl).hostname) &&
      options.providerApiKey.startsWith('sk_test_'));
  const inPerson = createInPerson({
    provider,
    merchantCode: options.merchantCode,
    origin,
    allowedOrigins: shopOrigins,
    ...(simulator
      ? { simulator: { baseUrl: options.providerBaseUrl, apiKey: options.providerApiKey } }
      : {}),
    log,
  });

  // Orders whose every webhook was lost and whose shopper never came back: asked about
  // on a timer. Each call does bounded work; several shops on one Redis share it.
  const reconcileEvery = options.reconcileIntervalMs ?? 60_000;
  let reconciling: Promise<unknown> = Promise.resolve();
  const reconcileTimer =
    reconcileEvery > 0
      ? setInterval(() => {
          reconciling = payments.reconcile().then(
            (report) => {
              if (report.ran > 0) log(`reconcile: ${report.ran} order(s) settled`);
            },
            (error: unknown) => log(`reconcile: ${String(error)}`),
          );
        }, reconcileEvery)
      : undefined;
  reconcileTimer?.unref();

  const shopPages = createShopPages({
    provider,
    payments,
    baskets,
    quotes,
    merchantCode: options.merchantCode,
    providerOrigin: new URL(options.providerBaseUrl).origin,
    allowedOrigins: shopOrigins,
    log,
    render,
  });

  /** A file under `root` (compressed and revalidated as `c` asks), or a 404 naming what is missing. */
  async function file(
    c: Context,
    root: string,
    rest: string,
    missing: () => Response,
  ): Promise<Response> {
    return (await serveFile(root, rest, c.req.raw)) ?? missing();
  }

  const app = new Hono();
  app.use(compressPages);
  // The handler keeps its own basePath (/payments), so the request goes on unchanged.
  app.all('/payments/*', mount(payments, { replaceRequest: false }));
  app.route('/in-person', inPerson.app);
  app.route('/', shopRoutes(shopPages));
  for (const name of ['payment-widget.iife.js', 'payment-widget.js']) {
    app.get(`/assets/${name}`, (c) =>
      file(c, assetsDir, name, () =>
        errorJson(404, 'NOT_BUILT', 'The widget is not built: run `npm run build`'),
      ),
    );
  }
  app.get('/assets/locales/:file', (c) => {
    const path = c.req.path;
    // The widget loads `locales/{tag}.js` beside its bundle for any language but English.
    if (!LOCALE_FILE.test(path)) return errorJson(404, 'NOT_FOUND', `No page at ${path}`);
    return file(c, join(assetsDir, 'locales'), c.req.param('file'), () =>
      errorJson(404, 'NOT_FOUND', `No locale file at ${path}`),
    );
  });
  app.get('/assets/parts/:file', (c) => {
    const name = c.req.param('file');
    const notFound = () => errorJson(404, 'NOT_FOUND', `No part at ${c.req.path}`);
    // The widget loads what the card form does not need (an outcome, saved cards, a 3DS
    // challenge, a bank's page, a boleto) from `parts/` when needed.
    return /^[\w-]+\.js$/.test(name)
      ? file(c, join(assetsDir, 'parts'), name, notFound)
      : notFound();
  });
  app.get('/demo/:file', (c) => {
    const name = c.req.param('file');
    const notFound = () => errorJson(404, 'NOT_FOUND', `No page at ${c.req.path}`);
    return /^[\w-]+\.(js|css|svg)$/.test(name) ? file(c, demoDir, name, notFound) : notFound();
  });
  for (const framework of ['react', 'vue']) {
    app.get(`/examples/${framework}`, () => empty(308, { location: `/examples/${framework}/` }));
    app.get(`/examples/${framework}/*`, (c) => {
      const path = c.req.path;
      return file(c, examplesDir, path.slice('/examples/'.length), () =>
        /\.\w+$/.test(path)
          ? errorJson(404, 'NOT_FOUND', `No page at ${path}`)
          : errorJson(404, 'NOT_BUILT', 'Build the examples: npm --prefix examples run build'),
      );
    });
  }
  app.notFound((c) =>
    c.req.method === 'GET' || c.req.method === 'HEAD'
      ? errorJson(404, 'NOT_FOUND', `No page at ${c.req.path}`)
      : errorJson(405, 'METHOD_NOT_ALLOWED', 'Use GET'),
  );

  const listener = toNodeListener(app.fetch);
  server.on('request', listener);
  // An Expect other than 100-continue comes here too: the listener answers Node's 417 in JSON.
  server.on('checkExpectation', listener);
  // And a CONNECT, which Node would hang up on: the listener refuses it (405).
  server.on('connect', listener);
  return {
    url: `${origin}/`,
    close: async () => {
      clearInterval(reconcileTimer);
      await reconciling;
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await redis?.close();
    },
  };
}
