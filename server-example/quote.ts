/**
 * The demo's "try an outcome" switches (demo-knobs.ts) as the shop's page hands them to the
 * payment handler. The page route reads them from the page's URL, and the page's `order`
 * carries them signed by the shop (a JWT, HS256, `hono/jwt`), so that `resolveCheckout`
 * prices the checkout as the page route priced the page, and nothing the browser writes
 * into the order changes it. A real shop has none of this: its order names products, which
 * its `resolveCheckout` prices from its catalogue (catalogue.ts does for the order alone).
 */
import { sign, verify } from 'hono/jwt';
import { PaymentHandlerError } from 'payment-widget/server';
import { DEFAULT_PRODUCT } from './catalogue.ts';
import { DEFAULT_KNOBS, type DemoKnobs } from './demo-knobs.ts';

export interface Quotes {
  /** The knobs a page was priced with, signed: the `quote` of its order. */
  sign(knobs: DemoKnobs): Promise<string>;
  /** The knobs `quote` was signed with; a 400 naming `order.quote` when it was not ours. */
  read(quote: unknown): Promise<DemoKnobs>;
}

/** Whether `knobs` price the page as it is priced without any (its language aside). */
export function defaultKnobs({ locale: _language, ...knobs }: DemoKnobs): boolean {
  const { locale: _none, ...defaults } = DEFAULT_KNOBS;
  return JSON.stringify(knobs) === JSON.stringify(defaults);
}

/** Quotes signed with `secret` (the one that signs the shop's basket cookies). */
export function signedQuotes(secret: string): Quotes {
  const refused = () =>
    new PaymentHandlerError(400, 'INVALID', 'order.quote is not one this shop made', 'order.quote');
  return {
    sign: (knobs) => sign({ knobs: { ...knobs } }, secret, 'HS256'),
    async read(quote) {
      if (typeof quote !== 'string') throw refused();
      try {
        const { knobs } = await verify(quote, secret, 'HS256');
        return knobs as DemoKnobs;
      } catch {
        throw refused();
      }
    },
  };
}

/**
 * A shop page's `order` attribute for `knobs`: the product, and the knobs signed as its quote
 * when they price it otherwise than by default.
 */
export async function orderFor(knobs: DemoKnobs, quotes: Quotes): Promise<string> {
  return JSON.stringify({
    sku: DEFAULT_PRODUCT.sku,
    ...(defaultKnobs(knobs) ? {} : { quote: await quotes.sign(knobs) }),
  });
}
