/**
 * `npm start`: the sandbox on 4010 and the example shop on 3000 in one process,
 * stopped together on Ctrl-C. (`npm start` builds the widget first; the React and Vue
 * pages the demo links to are built here when missing or out of date.)
 * SANDBOX_PORT and PORT move them when those ports are taken; REDIS_URL shares the
 * hooks' claims in that Redis; RECONCILE_INTERVAL_MS (default 60000) is how often orders that
 * no webhook or return page settled are asked about; OTEL_EXPORTER_OTLP_ENDPOINT (or
 * OTEL_TRACES_EXPORTER=console) starts OpenTelemetry (server-example/telemetry.ts).
 */
import { existsSync } from 'node:fs';
import { createSandbox } from 'payment-widget/sandbox';
import { optionsFromEnv, startServerExample } from '../server-example/index.ts';
import { startTelemetry } from '../server-example/telemetry.ts';
import { ensureExamples } from './examples.ts';

if (!existsSync(new URL('../dist/payment-widget.iife.js', import.meta.url))) {
  console.error('The widget is not built: run `npm run build` (or `npm start`, which builds).');
  process.exit(1);
}
ensureExamples((line) => console.log(line));

// Before the shop: the handler it makes then records into the SDK's providers.
const stopTelemetry = await startTelemetry((line) => console.log(line));
const sandbox = await createSandbox({ port: Number(process.env.SANDBOX_PORT ?? 4010) });
let shop: Awaited<ReturnType<typeof startServerExample>>;
try {
  shop = await startServerExample({
    providerBaseUrl: sandbox.url,
    providerApiKey: sandbox.apiKey,
    merchantCode: sandbox.merchantCode,
    port: Number(process.env.PORT ?? 3000),
    ...optionsFromEnv(),
    log: (line) => console.log(line),
  });
} catch (error) {
  await sandbox.close();
  throw error;
}

console.log(`sandbox:  ${sandbox.url} (key ${sandbox.apiKey}, merchant ${sandbox.merchantCode})`);
console.log(`sandbox dashboard, in a browser: ${sandbox.url}/`);
console.log('Open the demo shop (Ctrl-C stops both):');
console.log(shop.url);

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    void Promise.all([shop.close(), sandbox.close()])
      .then(() => stopTelemetry?.())
      .then(() => process.exit(0));
  });
}
