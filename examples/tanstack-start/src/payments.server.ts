// The payment handler, made on the first request: `vite build` loads this module without the
// settings.
import { createHash, randomUUID } from 'node:crypto';
import {
  createPaymentHandler,
  type PaymentHandler,
  PaymentHandlerError,
} from 'payment-widget/server';

// Your catalogue: the browser names a product, the server decides the price.
const PRICES: Record<string, { amount: number; currency: string; description: string }> = {
  mug: { amount: 12.5, currency: 'EUR', description: 'Sandbox mug' },
};

// The shopper's basket: a random id in an HttpOnly cookie, set with the product page.
export const basketOf = (request: Request) =>
  /(?:^|;\s*)basket=([\w-]{36})/.exec(request.headers.get('cookie') ?? '')?.[1];
export const newBasket = () => `basket=${randomUUID()}; Path=/; HttpOnly; SameSite=Lax`;
// The basket as its checkouts' references name it: a hash of the cookie, never the cookie
// itself (anyone with a checkout's id can read its reference).
const basketName = (request: Request) => {
  const basket = basketOf(request);
  return basket && `order-${createHash('sha256').update(basket).digest('base64url')}`;
};

function setting(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`Set ${name}`);
  return value;
}

let payments: PaymentHandler | undefined;

export function paymentHandler(): PaymentHandler {
  const shop = setting('SHOP_ORIGIN'); // where shoppers reach the shop: https://shop.example
  // The routes are under publicUrl's path. Under Vite's `base` ('/shop/'), put it in both:
  // `${shop}${import.meta.env.BASE_URL}api/payments`, and in resultPages and `endpoint`.
  payments ??= createPaymentHandler({
    provider: {
      baseUrl: setting('PROVIDER_BASE_URL'),
      apiKey: setting('PROVIDER_API_KEY'), // stays on the server
      merchantCode: setting('MERCHANT_CODE'),
    },
    publicUrl: `${shop}/api/payments`,
    allowedOrigins: [shop],
    resultPages: { success: '/result', failure: '/result' },
    // No clientAddress: the rate limits read the connection's address from the request
    // TanStack Start hands the route (srvx's `request.ip`).
    resolveCheckout(order, request) {
      const sku = typeof order === 'object' && order !== null && 'sku' in order ? order.sku : '';
      const price = typeof sku === 'string' && Object.hasOwn(PRICES, sku) ? PRICES[sku] : undefined;
      if (!price) throw new PaymentHandlerError(400, 'INVALID', 'Unknown product', 'order.sku');
      // One checkout per product in the basket: a reload, a second tab or the bank's app
      // finds it, and once it is paid, its confirmation.
      const basket = basketName(request);
      return basket === undefined ? price : { ...price, reference: `${basket}-${sku}` };
    },
    // "Try another card" on the result page, whose link may be anyone's: its basket's alone.
    authorizeBasket(request, reference) {
      const basket = basketName(request);
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
