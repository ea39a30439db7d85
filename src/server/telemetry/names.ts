/**
 * Every name the handler records under: its instrumentation scope, the metrics, the span
 * names and the attributes. The HTTP ones are OpenTelemetry's stable semantic conventions
 * (spelled out here, not imported: `@opentelemetry/semantic-conventions` would be one more
 * package for a handful of strings); the `payment_widget.*` ones are the handler's own, as
 * docs/server.md lists them. A leaf: it imports nothing.
 */

/** The tracer's and meter's name: the package's. */
export const SCOPE_NAME = 'payment-widget';
/**
 * The package's version, for the tracer and the meter. Written here rather than read from
 * package.json, which is not part of what the handler's bundle can import on every runtime;
 * a test keeps the two equal.
 */
export const SCOPE_VERSION = '0.1.0';

export const METRIC = {
  serverDuration: 'http.server.request.duration',
  clientDuration: 'http.client.request.duration',
  checkoutsCreated: 'payment_widget.checkouts.created',
  payments: 'payment_widget.payments',
  hookDuration: 'payment_widget.hook.duration',
  reconcileOpen: 'payment_widget.reconcile.open',
  rateLimitRefused: 'payment_widget.rate_limit.refused',
  pageViolations: 'payment_widget.page.violations',
} as const;

export const ATTR = {
  method: 'http.request.method',
  methodOriginal: 'http.request.method_original',
  route: 'http.route',
  status: 'http.response.status_code',
  errorType: 'error.type',
  scheme: 'url.scheme',
  urlFull: 'url.full',
  urlTemplate: 'url.template',
  resendCount: 'http.request.resend_count',
  serverAddress: 'server.address',
  serverPort: 'server.port',
  requestId: 'payment_widget.request_id',
  checkoutId: 'payment_widget.checkout.id',
  outcome: 'payment_widget.outcome',
  paymentMethod: 'payment_widget.method',
  hook: 'payment_widget.hook',
  hookResult: 'payment_widget.hook.result',
  limit: 'payment_widget.limit',
  violationKind: 'payment_widget.violation.kind',
  violationDirective: 'payment_widget.violation.directive',
  reconcile: {
    checked: 'payment_widget.reconcile.checked',
    ran: 'payment_widget.reconcile.ran',
    open: 'payment_widget.reconcile.open',
    closed: 'payment_widget.reconcile.closed',
    errors: 'payment_widget.reconcile.errors',
  },
} as const;

export const SPAN = {
  hook: 'payment_widget.hook',
  reconcile: 'payment_widget.reconcile',
} as const;

/** What `payment_widget.payments` says of one payment attempt (`PUT /checkouts/:id`). */
export type PaymentOutcome = 'paid' | 'failed' | 'next_step' | 'error';

/** What `payment_widget.hook.duration` says of one hook run. */
export type HookResult = 'ran' | 'threw' | 'timed_out';

/**
 * The buckets OpenTelemetry's HTTP conventions advise for request durations in seconds; the
 * SDK's default buckets are made for milliseconds and would put every request in the first.
 */
export const DURATION_BUCKETS = [
  0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10,
];

/** Hooks may run for up to their lease (30 s by default): a few wider buckets on top. */
export const HOOK_BUCKETS = [...DURATION_BUCKETS, 30, 60];
