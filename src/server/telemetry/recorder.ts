/**
 * What records, once `@opentelemetry/api` has loaded: the tracer, the instruments, and the
 * few helpers every span of the handler shares. Made once per handler.
 */
import type {
  Attributes,
  Counter,
  Histogram,
  MeterProvider,
  Span,
  Tracer,
  TracerProvider,
} from '@opentelemetry/api';
import type { Api } from './load.ts';
import {
  ATTR,
  DURATION_BUCKETS,
  HOOK_BUCKETS,
  METRIC,
  SCOPE_NAME,
  SCOPE_VERSION,
} from './names.ts';
import type { TelemetryOptions } from './options.ts';

/** The instruments; absent when no meter provider is registered (nothing to pay for). */
export interface Instruments {
  serverDuration: Histogram;
  clientDuration: Histogram;
  checkoutsCreated: Counter;
  payments: Counter;
  hookDuration: Histogram;
  rateLimitRefused: Counter;
  pageViolations: Counter;
}

export interface Recorder {
  api: Api;
  tracer: Tracer;
  /**
   * Whether spans may be recorded: false while the global tracer provider has no SDK behind it,
   * asked on every request so that an SDK registered later is found.
   */
  tracing(): boolean;
  metrics: Instruments | undefined;
  /** The request's `X-Request-Id` in the OpenTelemetry context, for log entries. */
  requestIdKey: symbol;
  /**
   * `@opentelemetry/core`'s suppress-tracing key (the API's keys are `Symbol.for` their name).
   * Set around a provider call: an HTTP client instrumentation (the official undici one) then
   * adds no second client span, nor a second `traceparent` value, to the handler's own.
   */
  quietKey: symbol;
  /**
   * `@opentelemetry/core`'s key of the host's request metadata (its RPC metadata): an object
   * the host's HTTP instrumentation puts in the context, whose `route` names its server span.
   */
  hostKey: symbol;
  /** The checkouts the last reconciliation left open, which the gauge reports. */
  reconcileOpen: number | undefined;
}

function instruments(api: Api, meterProvider: MeterProvider): Instruments | undefined {
  const meter = meterProvider.getMeter(SCOPE_NAME, SCOPE_VERSION);
  // The API's own no-op meter: no SDK is registered, so no attribute set is even built.
  if (meter === api.createNoopMeter()) return undefined;
  const seconds = (description: string, buckets: number[]) => ({
    description,
    unit: 's',
    advice: { explicitBucketBoundaries: buckets },
  });
  return {
    serverDuration: meter.createHistogram(
      METRIC.serverDuration,
      seconds('Duration of the requests the payment handler answered', DURATION_BUCKETS),
    ),
    clientDuration: meter.createHistogram(
      METRIC.clientDuration,
      seconds("Duration of the handler's calls to the payment provider", DURATION_BUCKETS),
    ),
    checkoutsCreated: meter.createCounter(METRIC.checkoutsCreated, {
      description: 'Checkouts the handler created at the provider',
      unit: '{checkout}',
    }),
    payments: meter.createCounter(METRIC.payments, {
      description: 'Payment attempts the handler sent to the provider, by outcome and method',
      unit: '{payment}',
    }),
    hookDuration: meter.createHistogram(
      METRIC.hookDuration,
      seconds('Duration of onPaid and onFailed runs, by result', HOOK_BUCKETS),
    ),
    rateLimitRefused: meter.createCounter(METRIC.rateLimitRefused, {
      description: 'Requests refused by a card-testing limit, by limit',
      unit: '{request}',
    }),
    pageViolations: meter.createCounter(METRIC.pageViolations, {
      description:
        "Violations reported on the merchant's payment pages (CSP, the widget's integrity checks), by kind and directive",
      unit: '{violation}',
    }),
  };
}

/**
 * The API's global tracer provider hands out no-op spans until an SDK registers behind it; a
 * fresh proxy's delegate is that same no-op provider, which is how it is told apart. Any other
 * provider (one passed as an option, another copy of the API's) may record.
 */
function tracingCheck(api: Api, provider: TracerProvider): () => boolean {
  if (!(provider instanceof api.ProxyTracerProvider)) return () => true;
  const noop = new api.ProxyTracerProvider().getDelegate();
  return () => provider.getDelegate() !== noop;
}

export function createRecorder(api: Api, options: TelemetryOptions): Recorder {
  // The option's types are structural (the API is an optional peer); these are the real ones.
  const tracerProvider =
    (options.tracerProvider as TracerProvider | undefined) ?? api.trace.getTracerProvider();
  const meterProvider =
    (options.meterProvider as MeterProvider | undefined) ?? api.metrics.getMeterProvider();
  const recorder: Recorder = {
    api,
    tracer: tracerProvider.getTracer(SCOPE_NAME, SCOPE_VERSION),
    tracing: tracingCheck(api, tracerProvider),
    metrics: instruments(api, meterProvider),
    requestIdKey: api.createContextKey('payment_widget.request_id'),
    quietKey: api.createContextKey('OpenTelemetry SDK Context Key SUPPRESS_TRACING'),
    hostKey: api.createContextKey('OpenTelemetry SDK Context Key RPC_METADATA'),
    reconcileOpen: undefined,
  };
  if (recorder.metrics !== undefined) {
    meterProvider
      .getMeter(SCOPE_NAME, SCOPE_VERSION)
      .createObservableGauge(METRIC.reconcileOpen, {
        description:
          'Checkouts the last reconciliation left open: pending at the provider, or their hook could not run yet',
        unit: '{checkout}',
      })
      .addCallback((result) => {
        if (recorder.reconcileOpen !== undefined) result.observe(recorder.reconcileOpen);
      });
  }
  return recorder;
}

/**
 * Whether a span is worth any work: recording, or carrying a valid context that its children
 * and the provider must continue (a trace sampled out upstream). The API's no-op tracer gives
 * neither when no SDK is registered.
 */
export function isLive(api: Api, span: Span): boolean {
  return span.isRecording() || api.isSpanContextValid(span.spanContext());
}

/**
 * Ends a span with its attributes; one with `error.type` is marked failed, with no message:
 * an error's message may hold anything (a hook's, a customer's address).
 */
export function endSpan(api: Api, span: Span, attributes: Attributes): void {
  if (span.isRecording()) {
    span.setAttributes(attributes);
    if (attributes[ATTR.errorType] !== undefined) {
      span.setStatus({ code: api.SpanStatusCode.ERROR });
    }
  }
  span.end();
}

/** The low-cardinality type of something thrown: its code when it has one, else its class. */
export function errorTypeOf(error: unknown): string {
  const code =
    (error as { errorCode?: unknown } | null)?.errorCode ??
    (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && code !== '') return code;
  return error instanceof Error ? error.name : '_OTHER';
}

/** Seconds since `started` (a `performance.now()` reading), as the duration metrics take them. */
export function secondsSince(started: number): number {
  return (performance.now() - started) / 1000;
}
