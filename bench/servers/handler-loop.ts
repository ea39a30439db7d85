// Child process: the companion handler called in process, a Web Request in and a Response out,
// with the provider stood in for by a `fetch` that answers one pending checkout at once: the
// handler's own work and nothing else (no socket, no sandbox, no other process on the same
// cores), which is what telemetry adds to. BENCH_TELEMETRY as ./otel.ts says. Prints one JSON
// line, then answers each `run N` on stdin with one JSON line: CPU µs and wall µs per request.
import { createPaymentHandler } from '../../src/server/index.ts';
import { serveLoop } from './loop.ts';
import { benchTelemetry } from './otel.ts';

const telemetry = await benchTelemetry(process.env.BENCH_TELEMETRY);
const checkout = JSON.stringify({
  id: 'co_bench',
  checkout_reference: 'bench',
  amount: 10,
  currency: 'EUR',
  merchant_code: 'MBENCH',
  status: 'PENDING',
});
const provider: typeof fetch = async () =>
  new Response(checkout, { headers: { 'content-type': 'application/json' } });
const handler = createPaymentHandler({
  provider: {
    baseUrl: 'http://127.0.0.1:9',
    apiKey: 'sk_test_bench',
    merchantCode: 'MBENCH',
    fetch: provider,
  },
  publicUrl: 'http://127.0.0.1/payments',
  allowedOrigins: ['http://127.0.0.1'],
  resultPages: { success: '/paid', failure: '/failed' },
  resolveCheckout: () => ({ amount: 10, currency: 'EUR' }),
  ...telemetry,
});

serveLoop(async () => {
  const answer = await handler(new Request('http://127.0.0.1/payments/checkouts/co_bench'));
  await answer.text();
});
