// The payment handler as a Nitro server route: every route the widget calls, under /api/payments.
import { createHash } from 'node:crypto';
import {
  createPaymentHandler,
  type PaymentHandler,
  PaymentHandlerError,
} from 'payment-widget/server';

// Your catalogue: the browser names a product, the server decides the price.
const PRICES: Record<string, { amount: number; currency: string; description: string }> = {
  mug: { amount: 12.5, currency: 'EUR', description: 'Sandbox mug' },
};

// The shopper's basket, from the cookie server/middleware/basket.ts set, named by a hash of
// it: anyone with a checkout's id can read its reference, never the cookie.
const basketOf = (request: Request) => {
  const basket = /(?:^|;\s*)basket=([\w-]{36})/.exec(request.headers.get('cookie') ?? '')?.[1];
  return basket && `order-${createHash('sha256').update(basket).digest('base64url')}`;
};

function setting(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`Set ${name}`);
  return value;
}

// Made on the first request: `nuxt build` needs none of the settings.
let payments: PaymentHandler | undefined;

function paymentHandler(): PaymentHandler {
  const shop = setting('SHOP_ORIGIN'); // where shoppers reach the shop: https://shop.example
  payments ??= createPaymentHandler({
    provider: {
      baseUrl: setting('PROVIDER_BASE_URL'),
      apiKey: setting('PROVIDER_API_KEY'), // stays on the server
      merchantCode: setting('MERCHANT_CODE'),
    },
    publicUrl: `${shop}/api/payments`,
    allowedOrigins: [shop],
    resultPages: { success: '/result', failure: '/result' },
    resolveCheckout(order, request) {
      const sku = typeof order === 'object' && order !== null && 'sku' in order ? order.sku : '';
      const price = typeof sku === 'string' && Object.hasOwn(PRICES, sku) ? PRICES[sku] : undefined;
      if (!price) throw new PaymentHandlerError(400, 'INVALID', 'Unknown product', 'order.sku');
      // One checkout per product in the basket: a reload, a second tab or the bank's app
      // finds it, and once it is paid, its confirmation.
      const basket = basketOf(request);
      return basket === undefined ? price : { ...price, reference: `${basket}-${sku}` };
    },
    // "Try another card" on the result page, whose link may be anyone's: its basket's alone.
    authorizeBasket(request, reference) {
      const basket = basketOf(request);
      return basket !== undefined && reference.startsWith(`${basket}-`);
    },
    hooks: {
      onPaid(checkout) {
        console.log(`paid: ${checkout.checkout_reference} (checkout ${checkout.id})`);
      },
    },
  });
  return payments;
}

// The Web Request, and Node's request: the handler reads the client's address for its rate
// limits from `incoming.socket`, as it does under toNodeListener.
export default defineEventHandler((event) =>
  paymentHandler()(toWebRequest(event), { incoming: event.node.req, outgoing: event.node.res }),
);
