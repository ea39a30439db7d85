/**
 * OpenTelemetry for the example shop, the way an app turns it on: with
 * OTEL_EXPORTER_OTLP_ENDPOINT set (a collector, e.g. http://127.0.0.1:4318) or
 * OTEL_TRACES_EXPORTER=console, the OpenTelemetry Node SDK starts before the shop, and the
 * payment handler's spans and metrics go to it: the handler finds the SDK's global providers by
 * itself. The SDK reads every other OTEL_* variable as usual (OTEL_SERVICE_NAME, ...).
 *
 * The SDK is a devDependency of this repository, imported only then: it is the shop's choice,
 * never a dependency of the published package, which needs only `@opentelemetry/api`.
 */

type Instrumentations = NonNullable<
  NonNullable<
    ConstructorParameters<typeof import('@opentelemetry/sdk-node').NodeSDK>[0]
  >['instrumentations']
>;

/**
 * Starts the SDK when the environment asks for it; resolves with its shutdown (which flushes).
 * The shop passes no instrumentations: the handler makes its own spans. The bench passes the
 * official http and undici ones to a bare proxy, to set the same SDK's cost beside the handler's.
 */
export async function startTelemetry(
  log: (line: string) => void,
  instrumentations: Instrumentations = [],
): Promise<(() => Promise<void>) | undefined> {
  const env = process.env;
  const endpoint = env.OTEL_EXPORTER_OTLP_ENDPOINT;
  const toConsole = env.OTEL_TRACES_EXPORTER === 'console';
  if (!endpoint && !toConsole) return undefined;
  // Without a collector the SDK's default for metrics (OTLP to localhost) has nowhere to go.
  if (!endpoint) env.OTEL_METRICS_EXPORTER ??= 'console';
  // The shop writes its log lines to stdout; the handler records no OpenTelemetry logs.
  env.OTEL_LOGS_EXPORTER ??= 'none';
  const { NodeSDK } = await import('@opentelemetry/sdk-node');
  const sdk = new NodeSDK({
    serviceName: env.OTEL_SERVICE_NAME ?? 'payment-widget-example-shop',
    instrumentations,
  });
  sdk.start();
  log(`OpenTelemetry: traces and metrics to ${endpoint ?? 'the console'}`);
  return () => sdk.shutdown();
}
