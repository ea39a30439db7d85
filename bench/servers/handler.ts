// Child process: the companion handler served by toNodeListener on a random
// loopback port, in front of the sandbox named by BENCH_SANDBOX (JSON from
// ./sandbox.ts). Prints one JSON line; exits when its parent's pipe closes.
// Its rate limits are on (they count every request, which is their cost) but out of
// reach of the bench's one client, which creates thousands of checkouts; with
// BENCH_RATE_LIMIT=off they are switched off, to measure that cost against.
// BENCH_TELEMETRY: `off` makes it with `telemetry: false`; `sdk` starts the OpenTelemetry Node
// SDK first, as the example shop does (OTEL_EXPORTER_OTLP_ENDPOINT names where it batches to),
// and records one span of the app's own, as an app using its SDK has; `sdk-off` does the same
// and makes the handler with `telemetry: false`; otherwise the handler finds
// @opentelemetry/api installed and no SDK registered.
import { createServer } from 'node:http';
import { startTelemetry } from '../../server-example/telemetry.ts';
import { createPaymentHandler, toNodeListener } from '../../src/server/index.ts';
import type { SandboxInfo } from '../http.ts';
import { listenOnLoopback, serveForParent } from './child.ts';

const ORIGIN = 'http://127.0.0.1';
const unreachable = { limit: Number.MAX_SAFE_INTEGER };

const sandbox = JSON.parse(process.env.BENCH_SANDBOX ?? '{}') as SandboxInfo;
const telemetry = process.env.BENCH_TELEMETRY;
if (telemetry?.startsWith('sdk')) {
  if ((await startTelemetry(() => {})) === undefined) {
    throw new Error('BENCH_TELEMETRY=sdk needs OTEL_EXPORTER_OTLP_ENDPOINT');
  }
  // Entering a context switches AsyncLocalStorage on for the process, as in any app whose
  // instrumentations (or whose batch processor, on its first export) have done so.
  const { trace } = await import('@opentelemetry/api');
  trace.getTracer('bench').startActiveSpan('app start', (span) => span.end());
}
let listener: ReturnType<typeof toNodeListener> | undefined;
const server = createServer((req, res) => listener?.(req, res));
const url = await listenOnLoopback(server);
listener = toNodeListener(
  createPaymentHandler({
    provider: {
      baseUrl: sandbox.url,
      apiKey: sandbox.apiKey,
      merchantCode: sandbox.merchantCode,
    },
    basePath: '/payments',
    publicUrl: `${url}/payments`,
    allowedOrigins: [ORIGIN],
    resultPages: {
      success: `${url}/paid`,
      failure: `${url}/failed`,
    },
    resolveCheckout: () => ({ amount: 10, currency: 'EUR' }),
    ...(telemetry === 'off' || telemetry === 'sdk-off' ? { telemetry: false as const } : {}),
    rateLimit:
      process.env.BENCH_RATE_LIMIT === 'off'
        ? false
        : {
            checkoutsPerClient: unreachable,
            paymentsPerClient: unreachable,
            paymentsPerCheckout: unreachable,
          },
  }),
);
serveForParent(server, { url: `${url}/payments` });
