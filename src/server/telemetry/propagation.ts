/**
 * Where a request's trace comes from and how it goes on to the provider (W3C Trace Context).
 *
 * In: the host's own span when its framework traced the request already (the active context
 * when the handler is called; a host that trusts its caller makes the caller's context active
 * itself). Else a new trace: the handler's routes are a public endpoint, whose callers (a
 * shopper's browser, or anyone) would otherwise choose its trace id and sampled flag. What the
 * request carries (read by the app's propagator, or a `traceparent` read here without one) is
 * only linked, as OpenTelemetry advises for untrusted context. Out: the app's propagator writes
 * its headers, and a `traceparent` is written here when it wrote none, so the provider always
 * gets one (an SDK set up without a propagator gets the API's, which does nothing).
 */
import type { Context, Link, SpanContext, TextMapGetter } from '@opentelemetry/api';
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

/**
 * The context a request's server span starts in, and its links: the host's span, or no span
 * (a new trace) linked to the one the request names, if any. Nothing extracted is kept in the
 * context, so the caller's baggage never reaches the provider either.
 */
export function requestParent(api: Api, headers: Headers): { parent: Context; links: Link[] } {
  const active = api.context.active();
  if (api.trace.getSpan(active) !== undefined) return { parent: active, links: [] };
  const extracted = api.trace.getSpan(api.propagation.extract(active, headers, headersGetter));
  const remote = extracted?.spanContext() ?? parseTraceparent(headers.get(TRACEPARENT));
  const linked = remote !== undefined && api.isSpanContextValid(remote);
  return { parent: active, links: linked ? [{ context: remote }] : [] };
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
