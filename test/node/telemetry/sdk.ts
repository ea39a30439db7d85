// The official OpenTelemetry SDK with in-memory exporters, as an operator's app would register
// it, for the telemetry tests: a tracer provider that keeps every ended span, a meter provider
// whose metrics are read on demand, and the AsyncLocalStorage context manager (the one the Node
// SDK installs), which carries a request's span across its awaits.
import assert from 'node:assert/strict';
import { context, SpanKind } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  AggregationTemporality,
  type DataPoint,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';
import {
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
  type SpanProcessor,
  TracerProvider,
} from '@opentelemetry/sdk-trace';

/** Once per test file (each runs in a process of its own): the context manager is global. */
export function registerContextManager(): void {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
}

export interface MetricPoint {
  name: string;
  unit: string;
  attributes: Record<string, unknown>;
  /** A counter's or gauge's value; a histogram's count. */
  value: number;
}

export interface InMemorySdk {
  tracerProvider: TracerProvider;
  meterProvider: MeterProvider;
  spans(): ReadableSpan[];
  /** The first span, ended already or to end, that `matches`: for work behind an answer. */
  ended(matches: (span: ReadableSpan) => boolean): Promise<ReadableSpan>;
  /** Every data point recorded so far (cumulative), flattened. */
  metrics(): Promise<MetricPoint[]>;
}

/** Tells waiting tests of each span as it ends. */
class EndedSpans implements SpanProcessor {
  readonly waiting = new Set<(span: ReadableSpan) => void>();
  onStart(): void {}
  onEnd(span: ReadableSpan): void {
    for (const tell of this.waiting) tell(span);
  }
  forceFlush = () => Promise.resolve();
  shutdown = () => Promise.resolve();
}

/** `also`: more span processors, e.g. one that exports the same spans elsewhere. */
export function inMemorySdk(also: SpanProcessor[] = []): InMemorySdk {
  const spanExporter = new InMemorySpanExporter();
  const endedSpans = new EndedSpans();
  const tracerProvider = new TracerProvider({
    spanProcessors: [new SimpleSpanProcessor({ exporter: spanExporter }), endedSpans, ...also],
  });
  const metricExporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  // Exports only when flushed: an interval longer than any test.
  const reader = new PeriodicExportingMetricReader({
    exporter: metricExporter,
    exportIntervalMillis: 3_600_000,
  });
  const meterProvider = new MeterProvider({ readers: [reader] });
  return {
    tracerProvider,
    meterProvider,
    spans: () => spanExporter.getFinishedSpans(),
    ended(matches) {
      const found = spanExporter.getFinishedSpans().find(matches);
      if (found !== undefined) return Promise.resolve(found);
      return new Promise((resolve) => {
        const tell = (span: ReadableSpan) => {
          if (!matches(span)) return;
          endedSpans.waiting.delete(tell);
          resolve(span);
        };
        endedSpans.waiting.add(tell);
      });
    },
    async metrics() {
      metricExporter.reset();
      await reader.forceFlush();
      const points: MetricPoint[] = [];
      for (const resource of metricExporter.getMetrics()) {
        for (const scope of resource.scopeMetrics) {
          for (const metric of scope.metrics) {
            for (const point of metric.dataPoints as DataPoint<unknown>[]) {
              const value = point.value;
              points.push({
                name: metric.descriptor.name,
                unit: metric.descriptor.unit,
                attributes: point.attributes,
                value: typeof value === 'number' ? value : (value as { count: number }).count,
              });
            }
          }
        }
      }
      return points;
    },
  };
}

/** The parent's span id of a span, or undefined for a root. */
export function parentOf(span: ReadableSpan): string | undefined {
  return span.parentSpanContext?.spanId;
}

/** Finding one request's spans, and its part of the tree, in what `sdk` recorded. */
export function spanTree(sdk: InMemorySdk) {
  function serverSpan(requestId: string): ReadableSpan {
    const found = sdk
      .spans()
      .filter(
        (s) =>
          s.kind === SpanKind.SERVER && s.attributes['payment_widget.request_id'] === requestId,
      );
    assert.equal(found.length, 1, `one server span for ${requestId}`);
    return found[0]!;
  }
  function childrenOf(span: ReadableSpan): ReadableSpan[] {
    const id = span.spanContext().spanId;
    return sdk.spans().filter((s) => parentOf(s) === id);
  }
  /** The names of a span's children, sorted: the shape of its part of the tree. */
  const childNames = (span: ReadableSpan) =>
    childrenOf(span)
      .map((s) => s.name)
      .sort();
  return { serverSpan, childrenOf, childNames };
}

/** The points of one metric whose attributes include `match`. */
export function points(all: MetricPoint[], name: string, match: Record<string, unknown> = {}) {
  return all.filter(
    (p) => p.name === name && Object.entries(match).every(([k, v]) => p.attributes[k] === v),
  );
}
export const total = (list: MetricPoint[]) => list.reduce((sum, p) => sum + p.value, 0);
