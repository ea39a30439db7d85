// Child process: the companion handler called in process, a Web Request in and a Response out,
// with the provider stood in for by a `fetch` that answers one pending checkout at once: the
// handler's own work and nothing else (no socket, no sandbox, no other process on the same
// cores), which is what telemetry adds to. BENCH_TELEMETRY as ./otel.ts says. Prints one JSON
// line, then answers each `run N` on stdin with one JSON line: CPU µs and wall µs per request.
import { createInterface } from 'node:readline';
import { createPaymentHandler } from '../../src/server/index.ts';
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

async function run(count: number): Promise<{ cpuUs: number; wallUs: number }> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (let i = 0; i < count; i += 1) {
    const answer = await handler(new Request('http://127.0.0.1/payments/checkouts/co_bench'));
    await answer.text();
  }
  const used = process.cpuUsage(cpu);
  return {
    cpuUs: (used.user + used.system) / count,
    wallUs: ((performance.now() - started) * 1000) / count,
  };
}

process.stdout.write(`${JSON.stringify({ ready: true })}\n`);
const lines = createInterface({ input: process.stdin });
lines.on('line', (line) => {
  const count = Number(/^run (\d+)$/.exec(line)?.[1]);
  if (!Number.isInteger(count)) return;
  void run(count).then((result) => process.stdout.write(`${JSON.stringify(result)}\n`));
});
lines.on('close', () => process.exit(0));
