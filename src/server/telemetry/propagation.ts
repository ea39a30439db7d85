/**
 * Where a request's trace comes from and how it goes on to the provider (W3C Trace Context).
 *
 * In: the host's own span when its framework traced the request already (the active context
 * when the handler is called); else what the app's propagator reads from the headers; else a
 * `traceparent` header read here. Out: the app's propagator writes its headers, and a
 * `traceparent` is written here when it wrote none, so the provider always gets one. The
 * fallbacks matter because an SDK set up without a propagator (the API's default is one that
 * does nothing) would otherwise cut every trace at the handler.
 */
import type { Context, SpanContext, TextMapGetter } from '@opentelemetry/api';
import type { Api } from './load.ts';

const TRACEPARENT = 'traceparent';
// version-traceid-parentid-flags; a later version may append fields after another dash.
const TRACEPARENT_FORMAT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;

const headersGetter: TextMapGetter<Headers> = {
  get: (headers, key) => headers.get(key) ?? undefined,
  keys: (headers) => [...headers.keys()],
};

/** A `traceparent` header's span context, or undefined when it is absent or malformed. */
export function parseTraceparent(value: string | null | undefined): SpanContext | undefined {
  const match = TRACEPARENT_FORMAT.exec(value?.trim() ?? '');
  if (match === null) return undefined;
  const [, version, traceId, spanId, flags, rest] = match;
  // Version ff is forbidden; version 00 has exactly four fields.
  if (version === 'ff' || (version === '00' && rest !== undefined)) return undefined;
  if (/^0+$/.test(traceId ?? '0') || /^0+$/.test(spanId ?? '0')) return undefined;
  return {
    traceId: traceId ?? '',
    spanId: spanId ?? '',
    traceFlags: Number.parseInt(flags ?? '0', 16) & 1,
    isRemote: true,
  };
}

export function formatTraceparent(span: SpanContext): string {
  return `00-${span.traceId}-${span.spanId}-0${span.traceFlags & 1}`;
}

/** The context a request's server span starts in. */
export function requestParent(api: Api, headers: Headers): Context {
  const active = api.context.active();
  if (api.trace.getSpan(active) !== undefined) return active;
  const extracted = api.propagation.extract(active, headers, headersGetter);
  if (api.trace.getSpan(extracted) !== undefined) return extracted;
  const remote = parseTraceparent(headers.get(TRACEPARENT));
  return remote === undefined ? extracted : api.trace.setSpanContext(extracted, remote);
}

/** Writes the trace headers of `context` (a provider call's span) into `headers`. */
export function injectInto(api: Api, context: Context, headers: Record<string, string>): void {
  api.propagation.inject(context, headers);
  if (headers[TRACEPARENT] !== undefined) return;
  const span = api.trace.getSpan(context)?.spanContext();
  if (span !== undefined && api.isSpanContextValid(span)) {
    headers[TRACEPARENT] = formatTraceparent(span);
  }
}
