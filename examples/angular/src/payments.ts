// The payment handler, made on its first request (`ng build` loads the server without the
// settings), and the shopper's basket.
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

function setting(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`Set ${name}`);
  return value;
}

// The shopper's basket: a random id in a cookie. A hash of it is its checkout's reference
// (anyone with a checkout's id can read its reference: never the cookie itself).
export const basketOf = (cookie: string | null | undefined) =>
  /(?:^|;\s*)basket=([\w-]{36})/.exec(cookie ?? '')?.[1];
const referenceOf = (request: Request) => {
  const basket = basketOf(request.headers.get('cookie'));
  return basket && `order-${createHash('sha256').update(basket).digest('base64url')}`;
};

let payments: PaymentHandler | undefined;

export function paymentHandler(): PaymentHandler {
  const shop = setting('SHOP_ORIGIN'); // where shoppers reach the shop: https://shop.example
  payments ??= createPaymentHandler({
    provider: {
      baseUrl: setting('PROVIDER_BASE_URL'),
      apiKey: setting('PROVIDER_API_KEY'), // stays on the server
      merchantCode: setting('MERCHANT_CODE'),
    },
    publicUrl: `${shop}/payments`,
    allowedOrigins: [shop],
    resultPages: { success: '/result', failure: '/result' },
    resolveCheckout(order, request) {
      const sku = typeof order === 'object' && order !== null && 'sku' in order ? order.sku : '';
      const price = typeof sku === 'string' && Object.hasOwn(PRICES, sku) ? PRICES[sku] : undefined;
      if (!price) throw new PaymentHandlerError(400, 'INVALID', 'Unknown product', 'order.sku');
      const reference = referenceOf(request);
      return reference ? { ...price, reference } : price;
    },
    // "Try another card" on the result page, whose link may be anyone's: its basket's alone.
    authorizeBasket: (request, reference) => reference === referenceOf(request),
    hooks: {
      onPaid(checkout) {
        console.log(`paid: ${checkout.checkout_reference} (checkout ${checkout.id})`);
      },
    },
  });
  return payments;
}
