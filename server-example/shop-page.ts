/**
 * The shop's page route, in the two shapes the README teaches. By default the page names its
 * checkout by `order` (the product, and the demo's knobs signed as its `quote`), and the
 * widget asks the handler for the basket's checkout, whose `reference` the handler's
 * `resolveCheckout` takes from the basket's cookie (orders.ts). With `?checkout-id=1` the
 * route itself prices the basket and asks the handler for its checkout (its open one on a
 * reload, its paid one once paid, a new one otherwise), and gives the widget only that
 * checkout's id; a paid basket then shows its order's confirmation and "Buy again" at once
 * (the `order` page shows them once the widget says the basket is paid). The result page,
 * where full-page flows end, is here too. Nothing here needs Node: the static site's
 * Service Worker serves the same pages.
 */
import { type Context, Hono } from 'hono';
import type { Checkout } from 'payment-widget/schemas';
import { type PaymentHandler, type ProviderClient, ProviderError } from 'payment-widget/server';
import type { Baskets } from './basket.ts';
import { DEFAULT_PRODUCT } from './catalogue.ts';
import { type DemoKnobs, readKnobs } from './demo-knobs.ts';
import { empty, errorJson, html } from './http.ts';
import { basketTerms } from './orders.ts';
import { pageSecurity } from './page-security.ts';
import {
  attributes,
  formatPrice,
  orderBlock,
  type PageVariant,
  type Render,
  variantParts,
} from './pages.ts';
import { orderFor, type Quotes } from './quote.ts';
import { DEMO_CUSTOMER_ID, SESSION_SET_COOKIE } from './session.ts';

/** Where "Buy again" may send the shopper back to, below the shop's base: one of its pages. */
const SHOP_PAGE = /^(?:index\.html|module\.html)?(?:\?[\w=&.%-]*)?$/;
const CHECKOUT_ID = /^[A-Za-z0-9._~-]{1,128}$/;

export interface ShopPageDeps {
  provider: ProviderClient;
  payments: PaymentHandler;
  baskets: Baskets;
  /** Signs the knobs a page was priced with, for its order (quote.ts). */
  quotes: Quotes;
  merchantCode: string;
  providerOrigin: string;
  /** The shop's own origins: where its pages (and so "Buy again") come from. */
  allowedOrigins: readonly string[];
  log: (line: string) => void;
  /** Renders the pages' templates (templates.ts on Node). */
  render: Render;
  /** The path the shop's pages are under, with its trailing slash. Default '/'. */
  base?: string;
}

export function createShopPages(deps: ShopPageDeps) {
  const { provider, payments, baskets, log, render } = deps;
  const base = deps.base ?? '/';

  /** Saved cards belong to a provider customer; make sure the demo's exists. */
  async function ensureDemoCustomer(): Promise<void> {
    try {
      await provider.customers.create({ customer_id: DEMO_CUSTOMER_ID });
    } catch (error) {
      if (!(error instanceof ProviderError && error.status === 409)) throw error;
    }
  }

  /** What the provider offers for this amount and currency; undefined if unknown, never thrown. */
  async function offeredMethods(knobs: DemoKnobs): Promise<string | undefined> {
    try {
      const offered = await provider.checkouts.paymentMethods(deps.merchantCode, {
        amount: knobs.amount,
        currency: knobs.currency,
      });
      return offered.available_payment_methods.map((m) => m.id).join(' ') || undefined;
    } catch {
      // The widget asks again itself; only its placeholder is less sure.
      return undefined;
    }
  }

  /**
   * How the page names its checkout. `checkout-id`: the route creates it through the handler
   * (which gives it the return and webhook routes and watches it for reconciliation), and the
   * page gets only its id. `order`: the README's shape, the product and the page's signed
   * knobs, which the widget hands the handler; the route makes nothing.
   */
  async function namedCheckout(
    knobs: DemoKnobs,
    basket: string,
    byId: boolean,
  ): Promise<{ attribute: Record<string, string>; paid?: Checkout }> {
    if (knobs.account) await ensureDemoCustomer();
    if (!byId) {
      return { attribute: { order: await orderFor(knobs, deps.quotes) } };
    }
    const checkout = await payments.createCheckout(basketTerms(knobs, basket));
    return {
      attribute: { 'checkout-id': checkout.id ?? '' },
      ...(checkout.status === 'PAID' ? { paid: checkout } : {}),
    };
  }

  async function shopPage(request: Request, variant: PageVariant): Promise<Response> {
    const url = new URL(request.url);
    const read = readKnobs(url.searchParams);
    if (!read.ok) return errorJson(400, 'INVALID', read.message, read.field);
    const knobs = read.knobs;
    const known = await baskets.current(request);
    const started = known === undefined ? await baskets.start() : undefined;
    const basket = known ?? (started?.id as string);
    // Asked beside the creation, not after it: the page waits for the slower of the two.
    // Without a redirect_url the bank methods cannot come back: cards only.
    const methods = knobs.redirect ? offeredMethods(knobs) : Promise.resolve('card');
    let named: Awaited<ReturnType<typeof namedCheckout>>;
    try {
      named = await namedCheckout(knobs, basket, url.searchParams.get('checkout-id') === '1');
    } catch (error) {
      const code = error instanceof ProviderError ? error.errorCode : 'INTERNAL';
      log(`page: the checkout could not be created (${code})`);
      return html(
        '<!doctype html><title>Shop unavailable</title><p>The payment provider could not be reached. Is the sandbox running?</p>',
        502,
      );
    }
    // Every shop page is a payment page: the tags and headers docs/pci.md teaches.
    const security = pageSecurity(url, deps.providerOrigin, variant === 'module');
    const parts = variantParts(variant, security);
    const widget = `<payment-widget ${attributes({
      ...named.attribute,
      endpoint: 'payments',
      // Named up front, the methods get their room from the widget's first paint
      // (its placeholder form has their radio group).
      'payment-methods': await methods,
      'customer-id': knobs.account ? DEMO_CUSTOMER_ID : undefined,
      'save-card': knobs.account,
      // The rest of the page stays English: the language is the widget's alone.
      locale: knobs.locale,
      lang: knobs.locale,
    })}></payment-widget>`;
    const body = render('shop.html', {
      title: DEFAULT_PRODUCT.name,
      variant: parts.label,
      productName: DEFAULT_PRODUCT.name,
      price: formatPrice(knobs.amount, knobs.currency),
      // Paid: the order's confirmation, until the shopper starts a new basket.
      order: orderBlock(named.paid, url),
      widget,
      scripts: parts.scripts,
    });
    const cookies = started?.cookie === undefined ? [] : [started.cookie];
    if (knobs.account) {
      // Stands in for the shop's login: authorizeCustomer accepts this session only.
      cookies.push(SESSION_SET_COOKIE);
    }
    const response = html(body, 200, security.headers);
    for (const cookie of cookies) response.headers.append('set-cookie', cookie);
    return response;
  }

  /**
   * "Buy again": a new basket, and back to the shop page the shopper was on. Only from the
   * shop's own pages: another site's form must not swap a shopper's basket for an empty one.
   */
  async function newBasket(request: Request): Promise<Response> {
    const from = request.headers.get('origin');
    if (from === null || !deps.allowedOrigins.includes(from)) {
      return errorJson(
        403,
        'FORBIDDEN_ORIGIN',
        'A new basket starts from the shop’s own pages',
        'origin',
      );
    }
    const form = new URLSearchParams(await request.text());
    const back = form.get('return') ?? base;
    const location = back.startsWith(base) && SHOP_PAGE.test(back.slice(base.length)) ? back : base;
    const { cookie } = await baskets.start();
    return empty(303, { location, ...(cookie === undefined ? {} : { 'set-cookie': cookie }) });
  }

  /** The result page (`?checkout_id=`): the widget there reads the outcome through the handler. */
  function result(request: Request): Response {
    const url = new URL(request.url);
    const id = url.searchParams.get('checkout_id') ?? '';
    if (!CHECKOUT_ID.test(id)) {
      return id === ''
        ? errorJson(400, 'MISSING', 'checkout_id is required', 'checkout_id')
        : errorJson(400, 'INVALID', 'checkout_id is not a checkout id', 'checkout_id');
    }
    // A payment page too: a checkout still open shows the form again.
    const security = pageSecurity(url, deps.providerOrigin);
    return html(
      render('result.html', {
        checkoutId: id,
        order: orderBlock(undefined, new URL(base, url)),
        scripts: variantParts('script', security).scripts,
      }),
      200,
      security.headers,
    );
  }

  return { page: shopPage, newBasket, result };
}

export type ShopPages = ReturnType<typeof createShopPages>;

/**
 * The shop's pages as routes: the shop page in each of its variants, the result page (where
 * full-page flows end; `result.html` too, the name a static host serves), and "Buy again".
 */
export function shopRoutes(pages: ShopPages): Hono {
  const shop = (variant: PageVariant) => (c: Context) => pages.page(c.req.raw, variant);
  return new Hono()
    .get('/', shop('script'))
    .get('/index.html', shop('script'))
    .get('/module.html', shop('module'))
    .get('/result', (c) => pages.result(c.req.raw))
    .get('/result.html', (c) => pages.result(c.req.raw))
    .post('/basket', (c) => pages.newBasket(c.req.raw));
}
