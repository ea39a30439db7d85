// Everything the site runs in the browser, wired as `npm start` wires it over the network: the
// sandbox (the provider), the companion handler and the demo shop, each from the code the
// package ships. Between them no request leaves the worker: the handler calls the sandbox
// through its `provider.fetch`, the sandbox delivers webhooks through its `webhook.fetch`,
// both into `route` below.
import { Hono } from 'hono';
import resultTemplate from '../../demo/result.html?raw';
import shopTemplate from '../../demo/shop.html?raw';
import { type Baskets, randomSecret } from '../../server-example/basket.ts';
import { readKnobs } from '../../server-example/demo-knobs.ts';
import { resolveShopOrder } from '../../server-example/orders.ts';
import { fill, formatPrice, type TemplateName } from '../../server-example/pages.ts';
import { orderFor, type Quotes, signedQuotes } from '../../server-example/quote.ts';
import { DEMO_CUSTOMER_ID } from '../../server-example/session.ts';
import { createShopPages, shopRoutes } from '../../server-example/shop-page.ts';
import { createSandboxCore, type SandboxCore } from '../../src/sandbox/core.ts';
import { createPaymentHandler } from '../../src/server/handler.ts';
import { createProviderClient } from '../../src/server/provider/client.ts';
import { refuseOtherCards } from './card-guard.ts';
import type { Database } from './idb.ts';
import { BrowserJournal, type Saved } from './journal.ts';
import { createBrowserStore } from './payment-store.ts';
import type { Records } from './records.ts';
import { rebuild } from './request.ts';
import { RequestJournal } from './request-journal.ts';

/** The sandbox's defaults, as `npx payment-sandbox` prints them: a test key, in the open. */
const API_KEY = 'sk_test_sandbox';
const MERCHANT_CODE = 'MSANDBOX1';
const BASKET = 'shop:basket';
/** The secret that signs the shop pages' quotes (server-example/quote.ts), kept with the basket. */
const QUOTE_SECRET = 'shop:quote-secret';

/**
 * The shop page without its links to what the site does not have: the React and Vue builds
 * (bundled by their own package) and the card readers (the in-person pages need a server).
 */
const SITE_SHOP = shopTemplate.replace(
  /\s*<li><a href="(?:examples\/react\/|in-person)">.*<\/li>/g,
  '',
);

const TEMPLATES: Partial<Record<TemplateName, string>> = {
  'shop.html': SITE_SHOP,
  'result.html': resultTemplate,
};

export interface WorldOptions {
  /** The site's origin. */
  origin: string;
  /** The path of the site's root on it: `/` or `/some/prefix/`. */
  base: string;
  db: Database;
  saved: Saved;
  records: Records;
  /** The sandbox dashboard's built script, served at its usual path. */
  dashboardScript: () => string | undefined;
}

export interface World {
  /** The answer of whichever part serves `request`, or undefined for a file of the site. */
  route(
    request: Request,
    waitUntil: (promise: Promise<unknown>) => void,
  ): Promise<Response | undefined>;
  /** Resolves once everything changed so far is stored. */
  flush(): Promise<void>;
}

/** The shopper's basket in the site's records: one per browser, as the shop's cookie is. */
function browserBaskets(records: Records): Baskets {
  return {
    async current() {
      const id = records.get(BASKET);
      return typeof id === 'string' ? id : undefined;
    },
    async start() {
      const id = crypto.randomUUID();
      records.set(BASKET, id);
      return { id };
    },
  };
}

/** The site's quote secret: made once per browser, kept as the basket is. */
function quoteSecret(records: Records): string {
  const kept = records.get(QUOTE_SECRET);
  if (typeof kept === 'string') return kept;
  const made = randomSecret();
  records.set(QUOTE_SECRET, made);
  return made;
}

/**
 * The playground panel's prices (site/playground/panel.ts): for a shop page's address query
 * (`?amount=12.00`), the `order` the page would name and the price it would show, as JSON, so
 * the panel reprices the page it is on without loading or parsing another.
 */
async function pricedOrder(url: URL, quotes: Quotes): Promise<Response> {
  const read = readKnobs(url.searchParams);
  if (!read.ok) return Response.json({ error: read.message, field: read.field }, { status: 400 });
  const { knobs } = read;
  return Response.json({
    order: await orderFor(knobs, quotes),
    price: formatPrice(knobs.amount, knobs.currency),
  });
}

export function createWorld(options: WorldOptions): World {
  const { origin, base, records } = options;
  const providerPath = `${base}provider`;
  const paymentsPath = `${base}payments`;
  const providerUrl = origin + providerPath;

  /** A request from one part of the world to another, answered without the network. */
  const inside = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> =>
    (await route(new Request(input, init), () => {})) ??
    new Response('Not part of the simulation', { status: 502 });

  let journal: BrowserJournal | undefined;
  const requestJournal = new RequestJournal(options.db);
  const sandbox: SandboxCore = createSandboxCore(
    { apiKey: API_KEY, merchantCode: MERCHANT_CODE, webhook: { fetch: inside } },
    {
      basePath: providerPath,
      dashboardScript: options.dashboardScript,
      persist: (store, requests) => {
        journal = new BrowserJournal(options.db, store);
        journal.open(options.saved);
        requestJournal.open(requests, options.saved.requests);
        // The dashboard's reset starts the shop afresh too: no basket, nothing remembered.
        const unsubscribe = store.subscribe((changes) => {
          if (changes.some((change) => change.op === 'reset')) records.clear();
        });
        return {
          close: () => {
            unsubscribe();
            journal?.close();
          },
        };
      },
    },
  );

  const provider = { baseUrl: providerUrl, apiKey: API_KEY, fetch: inside };
  const baskets = browserBaskets(records);
  const quotes = signedQuotes(quoteSecret(records));
  const handler = createPaymentHandler({
    provider: { ...provider, merchantCode: MERCHANT_CODE },
    basePath: paymentsPath,
    publicUrl: origin + paymentsPath,
    allowedOrigins: [origin],
    resultPages: { success: `${base}result.html`, failure: `${base}result.html` },
    resolveCheckout: resolveShopOrder({ baskets, quotes }),
    // One shopper per browser, and no cookie reaches a worker: the demo's account is theirs.
    authorizeCustomer: (_request, customerId) => customerId === DEMO_CUSTOMER_ID,
    store: createBrowserStore(records),
    // Every request comes from this browser: one client for the rate limits.
    rateLimit: { clientAddress: () => 'this-browser' },
    telemetry: false,
  });

  const pages = createShopPages({
    provider: createProviderClient(provider),
    payments: handler,
    baskets,
    quotes,
    merchantCode: MERCHANT_CODE,
    providerOrigin: origin,
    allowedOrigins: [origin],
    log: () => {},
    render: (name, slots) => fill(TEMPLATES[name] ?? '', slots),
    base,
  });
  // Not strict: the shop's `/` is the root's path with its slash.
  const shop = new Hono({ strict: false }).route(base.replace(/\/$/, ''), shopRoutes(pages));

  async function route(
    request: Request,
    waitUntil: (promise: Promise<unknown>) => void,
  ): Promise<Response | undefined> {
    const url = new URL(request.url);
    if (url.origin !== origin) return undefined;
    const path = url.pathname;
    if (path === paymentsPath || path.startsWith(`${paymentsPath}/`)) {
      return (await refuseOtherCards(request)) ?? handler(request, undefined, { waitUntil });
    }
    if (path === providerPath || path.startsWith(`${providerPath}/`)) {
      // The sandbox sees its own paths, as on its own port; the URLs it gives out carry the prefix.
      url.pathname = path.slice(providerPath.length) || '/';
      const headers = new Headers(request.headers);
      // The dashboard signs in with a cookie, and no cookie reaches a worker: its calls to the
      // control routes carry the sandbox's test key instead.
      if (url.pathname.startsWith('/sandbox/') && !headers.has('authorization')) {
        headers.set('authorization', `Bearer ${API_KEY}`);
      }
      return sandbox.handle(await rebuild(request, url, headers));
    }
    if (path === `${base}playground/order` && request.method === 'GET') {
      return pricedOrder(url, quotes);
    }
    const response = await shop.fetch(request);
    // Not one of the shop's routes: a file of the site, which the static server has.
    return response.status === 404 && !response.headers.get('content-type')?.includes('json')
      ? undefined
      : response;
  }

  return {
    route,
    flush: async () => {
      await journal?.flush();
      await requestJournal.flush();
      await records.flush();
    },
  };
}
