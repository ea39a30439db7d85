/**
 * What the shop charges for, wherever the checkout is made: the terms of the shopper's basket
 * for one page of the shop (its product at the price and terms the page was priced with,
 * the basket as the checkout's `reference`), used by the page route that makes the checkout
 * itself (`/?checkout-id=1`) and by the handler's `resolveCheckout` for a page that hands the
 * widget its `order` (every other page, as the README's page does).
 */
import type { ResolvedCheckout } from 'payment-widget/server';
import { type Baskets, orderReference } from './basket.ts';
import { DEFAULT_PRODUCT, type Product, productOf } from './catalogue.ts';
import { DEFAULT_KNOBS, type DemoKnobs } from './demo-knobs.ts';
import type { Quotes } from './quote.ts';
import { DEMO_CUSTOMER_ID } from './session.ts';

/** The shop's default: an unpaid checkout lapses after 30 minutes. */
const CHECKOUT_LIFETIME_S = 30 * 60;

/** The checkout terms of `basket` for `product` priced with `knobs`. */
export function basketTerms(
  knobs: DemoKnobs,
  basket: string | undefined,
  product: Product = DEFAULT_PRODUCT,
): ResolvedCheckout {
  const lifetime = knobs.expiresIn ?? CHECKOUT_LIFETIME_S;
  return {
    // The basket's checkout: its open one on a reload, its paid one once paid.
    ...(basket === undefined ? {} : { reference: orderReference(basket) }),
    amount: knobs.amount,
    currency: knobs.currency,
    description: product.name,
    redirect: knobs.redirect,
    ...(knobs.account ? { customerId: DEMO_CUSTOMER_ID } : {}),
    validUntil: new Date(Date.now() + lifetime * 1000).toISOString(),
  };
}

/**
 * The shop's `resolveCheckout`: the product the order names (`{ "sku": "poster" }`), at the
 * terms its page was priced with when the order carries the page's signed `quote` (quote.ts),
 * else at the product's own price; for the shopper's basket, when they have one.
 */
export function resolveShopOrder(deps: { baskets: Baskets; quotes: Quotes }) {
  return async (order: unknown, request: Request): Promise<ResolvedCheckout> => {
    const product = productOf(order);
    const quote =
      typeof order === 'object' && order !== null && 'quote' in order
        ? (order as { quote: unknown }).quote
        : undefined;
    const knobs =
      quote === undefined
        ? { ...DEFAULT_KNOBS, amount: product.amount, currency: product.currency }
        : await deps.quotes.read(quote);
    return basketTerms(knobs, await deps.baskets.current(request), product);
  };
}

/**
 * The shop's `authorizeBasket`: a basket's next checkout after a failure ("Try another card")
 * only for the shopper whose signed cookie names that basket; a result page's link, which
 * anyone may hold, is not enough.
 */
export function ownsShopBasket(baskets: Baskets) {
  return async (request: Request, reference: string): Promise<boolean> => {
    const basket = await baskets.current(request);
    return basket !== undefined && reference === orderReference(basket);
  };
}
