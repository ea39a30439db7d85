import { createServer } from 'node:http';
import { createPaymentHandler, PaymentHandlerError, toNodeListener } from 'payment-widget/server';

const port = Number(process.env.PORT ?? 3000);
const origin = `http://127.0.0.1:${port}`;

// Your catalogue: the browser names a product, the server decides the price.
const PRICES = { poster: { amount: 10, currency: 'EUR', description: 'Poster' } };

const payments = createPaymentHandler({
  provider: {
    baseUrl: process.env.PROVIDER_BASE_URL, // the sandbox: http://127.0.0.1:4010
    apiKey: process.env.PROVIDER_API_KEY, // stays on the server
    merchantCode: process.env.MERCHANT_CODE,
  },
  publicUrl: `${origin}/payments`,
  allowedOrigins: [origin],
  resultPages: {
    success: '/thanks',
    failure: '/thanks',
  },
  resolveCheckout(order) {
    const sku = order?.sku;
    const price = typeof sku === 'string' && Object.hasOwn(PRICES, sku) ? PRICES[sku] : undefined;
    if (!price) throw new PaymentHandlerError(400, 'INVALID', 'Unknown product', 'order.sku');
    return price;
  },
  hooks: {
    onPaid(checkout) {
      console.log(`paid: ${checkout.checkout_reference}`);
    },
  },
});

createServer(toNodeListener(payments)).listen(port, '127.0.0.1', () => {
  console.log(`listening on ${origin}`);
});

// Orders whose every webhook was lost: every minute, and at start.
// It rejects while the store is away (Redis down): one line says why; the next call retries.
const reconcile = () =>
  payments.reconcile().catch((error) => {
    console.warn(`payment-widget: reconcile() failed: ${error.message}`);
  });
setInterval(reconcile, 60_000).unref(); // keeps no stopping process alive
reconcile();
