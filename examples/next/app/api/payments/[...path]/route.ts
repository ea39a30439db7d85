// The payment handler as a Route Handler: every route the widget calls, under /api/payments.
import { createHash, randomUUID } from 'node:crypto';
import { cookies } from 'next/headers';
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

// The shopper's basket (its cookie, set below), named by a hash of it: anyone with a
// checkout's id can read its reference, never the cookie.
async function basketName(): Promise<string | undefined> {
  const basket = (await cookies()).get('basket')?.value;
  return basket ? `order-${createHash('sha256').update(basket).digest('base64url')}` : undefined;
}

// Made on the first request: `next build` loads this file without the settings.
let payments: PaymentHandler | undefined;

function paymentHandler(): PaymentHandler {
  const shop = setting('SHOP_ORIGIN'); // where shoppers reach the shop: https://shop.example
  payments ??= createPaymentHandler({
    provider: {
      baseUrl: setting('PROVIDER_BASE_URL'),
      apiKey: setting('PROVIDER_API_KEY'), // stays on the server
      merchantCode: setting('MERCHANT_CODE'),
    },
    publicUrl: `${shop}/api/payments`, // the routes are under its path, /api/payments
    allowedOrigins: [shop],
    resultPages: { success: '/result', failure: '/result' },
    // A Route Handler is not told the client's address: the one your host or proxy added
    // last to X-Forwarded-For (`next start` adds the connection's when there is none).
    rateLimit: {
      clientAddress: (request) => request.headers.get('x-forwarded-for')?.split(',').at(-1)?.trim(),
    },
    async resolveCheckout(order) {
      const sku = typeof order === 'object' && order !== null && 'sku' in order ? order.sku : '';
      const price = typeof sku === 'string' && Object.hasOwn(PRICES, sku) ? PRICES[sku] : undefined;
      if (!price) throw new PaymentHandlerError(400, 'INVALID', 'Unknown product', 'order.sku');
      // One checkout per product in the shopper's basket (its cookie, set below): a reload,
      // a second tab or the bank's app finds it, and once it is paid, its confirmation. A
      // new basket id (a new cookie) starts a new order of the same product.
      const basket = await basketName();
      return basket === undefined ? price : { ...price, reference: `${basket}-${sku}` };
    },
    // "Try another card" on the result page, whose link may be anyone's: its basket's alone.
    async authorizeBasket(_request, reference) {
      const basket = await basketName();
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

async function handle(request: Request): Promise<Response> {
  // The shopper's basket: a random id in an HttpOnly cookie, set here because a Route
  // Handler may set cookies and a page (a server component) may not; not on /return, which
  // 3-D Secure in the widget's iframe reaches from the bank's site (browsers refuse it there).
  const jar = await cookies();
  if (!jar.has('basket') && new URL(request.url).pathname !== '/api/payments/return') {
    jar.set('basket', randomUUID(), { httpOnly: true, sameSite: 'lax', path: '/' });
  }
  return paymentHandler()(request);
}

export { handle as GET, handle as POST, handle as PUT };
