// The OpenTelemetry a bench handler runs with, by BENCH_TELEMETRY: `sdk` starts the Node SDK as
// the example shop does (OTEL_EXPORTER_OTLP_ENDPOINT names where it batches to) and records one
// span of the app's own, as an app using its SDK has; `sdk-off` does the same and makes the
// handler with `telemetry: false`; `off` is `telemetry: false` without an SDK; anything else
// leaves the handler to find @opentelemetry/api installed and no SDK registered.
import { startTelemetry } from '../../server-example/telemetry.ts';

/** Starts what `mode` asks for; resolves with the handler's `telemetry` option. */
export async function benchTelemetry(mode: string | undefined): Promise<{ telemetry?: false }> {
  if (mode?.startsWith('sdk')) {
    if ((await startTelemetry(() => {})) === undefined) {
      throw new Error('BENCH_TELEMETRY=sdk needs OTEL_EXPORTER_OTLP_ENDPOINT');
    }
    // Entering a context switches AsyncLocalStorage on for the process, as in any app whose
    // instrumentations (or whose batch processor, on its first export) have done so.
    const { trace } = await import('@opentelemetry/api');
    trace.getTracer('bench').startActiveSpan('app start', (span) => span.end());
  }
  return mode === 'off' || mode === 'sdk-off' ? { telemetry: false } : {};
}

/**
 * For the bare proxy (./proxy.ts), with BENCH_TELEMETRY=sdk: the same SDK and exporter as above,
 * with the official instrumentations an app would add to a node:http server calling out through
 * undici. Anything else leaves the proxy without OpenTelemetry.
 */
export async function proxyTelemetry(mode: string | undefined): Promise<void> {
  if (mode !== 'sdk') return;
  const [{ HttpInstrumentation }, { UndiciInstrumentation }] = await Promise.all([
    import('@opentelemetry/instrumentation-http'),
    import('@opentelemetry/instrumentation-undici'),
  ]);
  const instrumentations = [new HttpInstrumentation(), new UndiciInstrumentation()];
  if ((await startTelemetry(() => {}, instrumentations)) === undefined) {
    throw new Error('BENCH_TELEMETRY=sdk needs OTEL_EXPORTER_OTLP_ENDPOINT');
  }
}
