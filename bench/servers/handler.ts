// Child process: the companion handler served by toNodeListener on a random
// loopback port, in front of the sandbox named by BENCH_SANDBOX (JSON from
// ./sandbox.ts). Prints one JSON line; exits when its parent's pipe closes.
// Its rate limits are on (they count every request, which is their cost) but out of
// reach of the bench's one client, which creates thousands of checkouts; with
// BENCH_RATE_LIMIT=off they are switched off, to measure that cost against.
// BENCH_TELEMETRY: with or without OpenTelemetry, as ./otel.ts says.
import { createServer } from 'node:http';
import { createPaymentHandler, toNodeListener } from '../../src/server/index.ts';
import type { SandboxInfo } from '../http.ts';
import { listenOnLoopback, serveForParent } from './child.ts';
import { benchTelemetry } from './otel.ts';

const ORIGIN = 'http://127.0.0.1';
const unreachable = { limit: Number.MAX_SAFE_INTEGER };

const sandbox = JSON.parse(process.env.BENCH_SANDBOX ?? '{}') as SandboxInfo;
const telemetry = await benchTelemetry(process.env.BENCH_TELEMETRY);
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
    ...telemetry,
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
