// An OpenTelemetry collector as small as a test needs: a node:http server on loopback that
// takes OTLP/HTTP exports in the JSON encoding (`/v1/traces`, `/v1/metrics`), decodes them and
// keeps every span and metric it received with its resource and instrumentation scope.
import { createServer } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { type Listening, listenLoopback } from '../support/loopback.ts';

/** An attribute as OTLP/JSON carries it: `{ key, value: { stringValue | intValue | ... } }`. */
export interface OtlpAttribute {
  key: string;
  value: Record<string, unknown>;
}

export interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: OtlpAttribute[];
}

interface Scoped<T> {
  resource: OtlpAttribute[];
  scope: { name: string; version?: string };
  item: T;
}

interface TraceExport {
  resourceSpans: {
    resource?: { attributes?: OtlpAttribute[] };
    scopeSpans: { scope: { name: string; version?: string }; spans: OtlpSpan[] }[];
  }[];
}

interface MetricExport {
  resourceMetrics: {
    resource?: { attributes?: OtlpAttribute[] };
    scopeMetrics: { scope: { name: string; version?: string }; metrics: { name: string }[] }[];
  }[];
}

export interface Collector extends Listening {
  spans: Scoped<OtlpSpan>[];
  metrics: Scoped<{ name: string }>[];
}

/** An attribute's value as JSON carries it (`{ stringValue: 'x' }` gives `'x'`). */
export function attribute(list: OtlpAttribute[] | undefined, key: string): unknown {
  const value = list?.find((a) => a.key === key)?.value;
  return value === undefined ? undefined : Object.values(value)[0];
}

export async function startCollector(): Promise<Collector> {
  const spans: Collector['spans'] = [];
  const metrics: Collector['metrics'] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.headers['content-type'] !== 'application/json') {
        res.writeHead(415).end();
        return;
      }
      const raw = Buffer.concat(chunks);
      const body = req.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw;
      const decoded = JSON.parse(body.toString('utf8')) as Partial<TraceExport & MetricExport>;
      for (const { resource, scopeSpans } of decoded.resourceSpans ?? []) {
        for (const { scope, spans: list } of scopeSpans) {
          for (const item of list)
            spans.push({ resource: resource?.attributes ?? [], scope, item });
        }
      }
      for (const { resource, scopeMetrics } of decoded.resourceMetrics ?? []) {
        for (const { scope, metrics: list } of scopeMetrics) {
          for (const item of list) {
            metrics.push({ resource: resource?.attributes ?? [], scope, item });
          }
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  return { ...(await listenLoopback(server)), spans, metrics };
}
