/**
 * Runs the example backend on its own:
 *   PROVIDER_BASE_URL=http://127.0.0.1:4010 PROVIDER_API_KEY=sk_test_sandbox \
 *   MERCHANT_CODE=MSANDBOX1 PORT=3000 node --import tsx server-example/main.ts
 * With REDIS_URL=redis://127.0.0.1:6379 set, several of them share the hooks' claims;
 * RECONCILE_INTERVAL_MS (default 60000) says how often unsettled orders are asked about;
 * OTEL_EXPORTER_OTLP_ENDPOINT (or OTEL_TRACES_EXPORTER=console) starts OpenTelemetry.
 * (`npm start` runs it together with the sandbox.)
 */
import { optionsFromEnv } from './env.ts';
import { startServerExample } from './server.ts';
import { startTelemetry } from './telemetry.ts';

function required(name: string, fallback?: string): string {
  const value = process.env[name] ?? fallback;
  if (!value) {
    console.error(`server-example: set ${name}`);
    process.exit(1);
  }
  return value;
}

const port = Number(process.env.PORT ?? 3000);
if (!Number.isInteger(port) || port < 0 || port > 65_535) {
  console.error('server-example: PORT must be a port number');
  process.exit(1);
}

// Before the shop: the handler it makes then records into the SDK's providers.
const stopTelemetry = await startTelemetry((line) => console.log(line));
const example = await startServerExample({
  providerBaseUrl: required('PROVIDER_BASE_URL', 'http://127.0.0.1:4010'),
  providerApiKey: required('PROVIDER_API_KEY'),
  merchantCode: required('MERCHANT_CODE', 'MSANDBOX1'),
  port,
  ...optionsFromEnv(),
  log: (line) => console.log(line),
});
console.log(`server-example: ${example.url}`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void example
      .close()
      // A collector that is down makes the SDK's shutdown reject: what it held is lost, and said.
      .then(() =>
        stopTelemetry?.().catch((error: unknown) => {
          console.error(`server-example: OpenTelemetry: ${String(error)}`);
        }),
      )
      .then(() => process.exit(0));
  });
}
