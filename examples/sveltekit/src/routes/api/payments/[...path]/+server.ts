// The payment handler as a catch-all route: every route the widget calls, under /api/payments.
import { createHash } from 'node:crypto';
import type { RequestEvent, RequestHandler } from '@sveltejs/kit';
import {
  createPaymentHandler,
  type PaymentHandler,
  PaymentHandlerError,
} from 'payment-widget/server';

// Your catalogue: the browser names a product, the server decides the price.
const PRICES: Record<string, { amount: number; currency: string; description: string }> = {
  mug: { amount: 12.5, currency: 'EUR', description: 'Sandbox mug' },
};

// The shopper's basket, from the cookie the product page set (+page.server.ts), named by a
// hash of it: anyone with a checkout's id can read its reference, never the cookie.
const basketOf = (request: Request) => {
  const basket = /(?:^|;\s*)basket=([\w-]{36})/.exec(request.headers.get('cookie') ?? '')?.[1];
  return basket && `order-${createHash('sha256').update(basket).digest('base64url')}`;
};

function setting(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`Set ${name}`);
  return value;
}

// Made on the first request: `vite build` loads this module without the settings.
let payments: PaymentHandler | undefined;

function paymentHandler(): PaymentHandler {
  // Where shoppers reach the shop (https://shop.example): adapter-node's own ORIGIN.
  const origin = setting('ORIGIN');
  payments ??= createPaymentHandler({
    provider: {
      baseUrl: setting('PROVIDER_BASE_URL'),
      apiKey: setting('PROVIDER_API_KEY'), // stays on the server
      merchantCode: setting('MERCHANT_CODE'),
    },
    publicUrl: `${origin}/api/payments`,
    allowedOrigins: [origin],
    resultPages: { success: '/result', failure: '/result' },
    // The client's address for the rate limits: SvelteKit's, from the event passed below.
    rateLimit: {
      clientAddress: (_request, event) => (event as RequestEvent).getClientAddress(),
    },
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

const handle: RequestHandler = (event) => paymentHandler()(event.request, event);

export { handle as GET, handle as POST, handle as PUT };
