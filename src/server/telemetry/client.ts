/**
 * A client span per provider call and `http.client.request.duration`, per OpenTelemetry's
 * stable HTTP conventions, around each attempt the transport sends (a retried GET is two
 * spans). The call carries the span's `traceparent`, so the provider's side of a payment
 * joins the merchant's trace.
 *
 * The URL is recorded without what could identify a shopper or open a door: every query value
 * and the customer and saved-card segments of a path read `REDACTED` (a merchant may use an
 * email address as a customer id). The key travels in a header, which is never recorded.
 */
import type { Attributes } from '@opentelemetry/api';
import { type Exchange, ExchangeError, type ExchangeRequest } from '../provider/exchange.ts';
import { ATTR } from './names.ts';
import { injectInto } from './propagation.ts';
import { endSpan, isLive, type Recorder, secondsSince } from './recorder.ts';

const REDACTED = 'REDACTED';

/**
 * The provider's path segments that name a resource, by the segment before them: their
 * placeholder in `url.template`, and whether `url.full` hides them.
 */
const IDS: Readonly<Record<string, { placeholder: string; hidden?: true }>> = {
  checkouts: { placeholder: '{id}' },
  customers: { placeholder: '{customer_id}', hidden: true },
  'payment-instruments': { placeholder: '{token}', hidden: true },
  merchants: { placeholder: '{merchant_code}' },
  readers: { placeholder: '{id}' },
  accounts: { placeholder: '{id}' },
  refund: { placeholder: '{transaction_id}' },
  receipts: { placeholder: '{transaction_id}' },
};
/** A resource name and the id after it, in one pass over the path (this runs per call). */
const ID_SEGMENT = new RegExp(`/(${Object.keys(IDS).join('|')})/([^/]+)`, 'g');

/** A call's `url.template`: low cardinality, for the span's name. */
export function urlTemplate(path: string): string {
  const mark = path.indexOf('?');
  const pathname = mark === -1 ? path : path.slice(0, mark);
  return pathname.replace(ID_SEGMENT, (_, name: string) => `/${name}/${IDS[name]?.placeholder}`);
}

/** A call's `url.full`, scrubbed: every query value and the hidden segments read REDACTED. */
export function scrubbedUrl(origin: string, path: string): string {
  const mark = path.indexOf('?');
  const pathname = mark === -1 ? path : path.slice(0, mark);
  const shown = pathname.replace(ID_SEGMENT, (segment: string, name: string) =>
    IDS[name]?.hidden ? `/${name}/${REDACTED}` : segment,
  );
  if (mark === -1) return `${origin}${shown}`;
  const names = path
    .slice(mark + 1)
    .split('&')
    .map((pair) => `${pair.split('=')[0]}=${REDACTED}`);
  return `${origin}${shown}?${names.join('&')}`;
}

/** What cut a call short: `timeout`, or the network's own code (`ECONNREFUSED`, ...). */
function exchangeErrorType(error: unknown): string {
  if (!(error instanceof ExchangeError)) return error instanceof Error ? error.name : '_OTHER';
  if (error.kind === 'timeout') return 'timeout';
  const code = (error.cause as { code?: unknown } | null | undefined)?.code;
  return typeof code === 'string' && code !== '' ? code : 'network';
}

/** Wraps the transport's exchange with `base` (the provider's base URL) for the handler. */
export function clientSpans(current: () => Recorder | undefined) {
  return (exchange: Exchange, base: URL): Exchange => {
    const address = base.hostname.replace(/^\[(.*)\]$/, '$1');
    const port = Number(base.port) || (base.protocol === 'https:' ? 443 : 80);
    // Not async itself: without an SDK a call goes straight through at the cost of two checks.
    return (request, timeoutMs) => {
      const recorder = current();
      if (recorder === undefined || (recorder.metrics === undefined && !recorder.tracing())) {
        return exchange(request, timeoutMs);
      }
      return traced(request, timeoutMs, recorder);
    };

    async function traced(
      request: ExchangeRequest,
      timeoutMs: number,
      { api, tracer, metrics, quietKey }: Recorder,
    ): ReturnType<Exchange> {
      const parent = api.context.active();
      const span = tracer.startSpan(request.method, { kind: api.SpanKind.CLIENT }, parent);
      const live = isLive(api, span);
      // The transport builds the headers afresh for each attempt: they are this call's own.
      if (live) injectInto(api, api.trace.setSpan(parent, span), request.headers);
      const started = performance.now();
      // Literal keys, not ATTR's: this object is made on every call.
      const attributes: Attributes = {
        'http.request.method': request.method,
        'server.address': address,
        'server.port': port,
      };
      try {
        const quiet = parent.setValue(quietKey, true);
        const answer = await api.context.with(quiet, exchange, undefined, request, timeoutMs);
        attributes['http.response.status_code'] = answer.status;
        if (answer.status >= 400) attributes['error.type'] = String(answer.status);
        return answer;
      } catch (error) {
        attributes['error.type'] = exchangeErrorType(error);
        throw error;
      } finally {
        metrics?.clientDuration.record(secondsSince(started), attributes);
        if (span.isRecording()) {
          // After the metric took its attributes: the URL is the span's alone.
          const template = urlTemplate(request.path);
          span.updateName(`${request.method} ${template}`);
          span.setAttribute(ATTR.urlTemplate, template);
          span.setAttribute(ATTR.urlFull, scrubbedUrl(base.origin, request.path));
          // Tells a retried read's attempts apart: the same name, URL and (often) error.
          if (request.resent) span.setAttribute(ATTR.resendCount, request.resent);
        }
        endSpan(api, span, attributes);
      }
    }
  };
}
