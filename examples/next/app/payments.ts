// The companion handler, made once per server process on its first request (not while
// `next build` collects the routes, when the provider's settings need not be there yet).
// The key comes from the environment and never reaches a page.
import { createPaymentHandler, PaymentHandlerError } from 'payment-widget/server';

/** The shop's one product; the browser names it, the server prices it. */
const PRICES: Record<string, { amount: number; currency: string; description: string }> = {
  mug: { amount: 12.5, currency: 'EUR', description: 'Sandbox mug' },
};

function setting(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`Set ${name} (see examples/next/README.md)`);
  return value;
}

function create() {
  // Where the browser and the provider reach this app, e.g. https://shop.example.
  const shop = setting('SHOP_ORIGIN');
  return createPaymentHandler({
    provider: {
      baseUrl: setting('PROVIDER_BASE_URL'),
      apiKey: setting('PROVIDER_API_KEY'),
      merchantCode: setting('MERCHANT_CODE'),
    },
    basePath: '/api/payments',
    publicUrl: `${shop}/api/payments`,
    allowedOrigins: [shop],
    resultPages: {
      success: '/',
      failure: '/',
    },
    resolveCheckout(order) {
      const sku = (order as { sku?: unknown } | null)?.sku;
      const item = typeof sku === 'string' ? PRICES[sku] : undefined;
      if (!item) {
        throw new PaymentHandlerError(400, 'INVALID', 'No such product', 'order.sku');
      }
      return item;
    },
    hooks: {
      onPaid(checkout) {
        // Fulfil the order here (idempotently: upsert by checkout id).
        console.log(`order paid (checkout ${checkout.id})`);
      },
      onFailed(checkout) {
        console.log(`order not paid (checkout ${checkout.id}, ${checkout.status})`);
      },
    },
  });
}

let handler: ReturnType<typeof createPaymentHandler> | undefined;

export function payments(request: Request): Promise<Response> {
  handler ??= create();
  return handler(request);
}
