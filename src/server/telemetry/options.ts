/**
 * The handler's `telemetry` option. Structural on purpose: `@opentelemetry/api` is an optional
 * peer, so nothing a merchant's compiler reads may name it. The SDK's `TracerProvider` and
 * `MeterProvider` (and the API's own) fit these shapes as they are.
 */

/** An OpenTelemetry `TracerProvider`, e.g. the SDK's `NodeTracerProvider`. */
export interface TracerProviderLike {
  getTracer(name: string, version?: string): unknown;
}

/** An OpenTelemetry `MeterProvider`, e.g. the SDK's `MeterProvider`. */
export interface MeterProviderLike {
  getMeter(name: string, version?: string): unknown;
}

/**
 * Where the handler's spans and metrics go. Each provider left out is the global one
 * (`trace.getTracerProvider()`, `metrics.getMeterProvider()` of `@opentelemetry/api`), so
 * an app that starts the OpenTelemetry SDK needs to pass nothing.
 */
export interface TelemetryOptions {
  tracerProvider?: TracerProviderLike;
  meterProvider?: MeterProviderLike;
}
