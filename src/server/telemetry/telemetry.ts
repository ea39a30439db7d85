/**
 * The handler's OpenTelemetry: spans and metrics when an SDK is registered (or providers are
 * passed as `telemetry`), nothing otherwise. `@opentelemetry/api` is loaded once, when the
 * handler is made (load.ts); the handler's first calls wait for that, so none of them goes
 * unrecorded, and every later call finds it settled. With `telemetry: false` the handler gets
 * `noTelemetry`, whose every piece hands back what it was given: the API is never loaded, and
 * the handler's wiring has no branch for it.
 *
 * Each piece asks `current()` at call time and does nothing while it is undefined: the API is
 * not installed, or not loaded yet.
 */

import type { Context, Next } from 'hono';
import type { Checkout } from '../../schemas/index.ts';
import type { HookRun } from '../outcomes/done.ts';
import type { ReconcileReport } from '../outcomes/reconcile.ts';
import type { ProviderClient } from '../provider/client.ts';
import type { Exchange } from '../provider/exchange.ts';
import type { HandlerEnv, Logger } from '../types.ts';
import { clientSpans } from './client.ts';
import { loadApi } from './load.ts';
import type { TelemetryOptions } from './options.ts';
import {
  countingClient,
  countRefusal,
  countViolation,
  tracedHook,
  tracedReconcile,
} from './outcomes.ts';
import { createRecorder, type Recorder } from './recorder.ts';
import { serverSpans } from './server.ts';

export interface Telemetry {
  /** Pending while the API loads; undefined once it has loaded or is known to be missing. */
  ready(): Promise<void> | undefined;
  /** Runs the rest of a request (`next`) inside its server span. */
  around(c: Context<HandlerEnv>, next: Next): Promise<void>;
  /** Wraps the provider transport's exchange: a client span per call, `traceparent` sent. */
  exchange(exchange: Exchange, base: URL): Exchange;
  /** The provider client the routes use, counting checkouts created and payment attempts. */
  client(client: ProviderClient): ProviderClient;
  hook<T extends Checkout>(
    name: 'onPaid' | 'onFailed',
    hook: ((checkout: T, run: HookRun) => unknown) | undefined,
  ): ((checkout: T, run: HookRun) => unknown) | undefined;
  reconcile(run: () => Promise<ReconcileReport>): Promise<ReconcileReport>;
  /** Counts one request refused by the named rate limit. */
  refused(limit: string): void;
  /** Counts one violation reported on a payment page (`POST /reports`). */
  violation(kind: string, directive: string): void;
  /** The logger, with the trace, span and request ids of the request an entry is written in. */
  logger(log: Logger): Logger;
}

/** `telemetry: false`: records nothing, and each wrapper returns what it wraps unchanged. */
export const noTelemetry: Telemetry = {
  ready: () => undefined,
  around: (_c, next) => next(),
  exchange: (exchange) => exchange,
  client: (client) => client,
  hook: (_name, hook) => hook,
  reconcile: (run) => run(),
  refused: () => {},
  violation: () => {},
  logger: (log) => log,
};

export function createTelemetry(
  /** Resolved (options/telemetry.ts): checked already. */
  option: TelemetryOptions | false,
  settings: { leaseMs: number; log: Logger },
): Telemetry {
  if (option === false) return noTelemetry;
  const options = option;
  let recorder: Recorder | undefined;
  let pending: Promise<void> | undefined = loadApi()
    .then((api) => {
      if (api !== undefined) recorder = createRecorder(api, options);
    })
    .catch((error: unknown) => {
      // A provider that throws when asked for its tracer or meter: payments go on unrecorded.
      settings.log({ level: 'warn', message: `telemetry: could not start: ${String(error)}` });
    })
    .finally(() => {
      pending = undefined;
    });
  const current = () => recorder;
  return {
    ready: () => pending,
    around: serverSpans(current),
    exchange: clientSpans(current),
    client: (client) => countingClient(client, current),
    hook: (name, hook) => tracedHook(name, hook, settings.leaseMs, current),
    reconcile: (run) => tracedReconcile(run, current),
    refused: (limit) => countRefusal(limit, current),
    violation: (kind, directive) => countViolation(kind, directive, current),
    logger(log) {
      return (entry) => {
        if (recorder === undefined) return log(entry);
        const { api, requestIdKey } = recorder;
        const active = api.context.active();
        const span = api.trace.getSpan(active)?.spanContext();
        const requestId = active.getValue(requestIdKey) as string | undefined;
        log({
          ...entry,
          ...(entry.traceId === undefined && span !== undefined && api.isSpanContextValid(span)
            ? { traceId: span.traceId, spanId: span.spanId }
            : {}),
          ...(entry.requestId === undefined && requestId !== undefined ? { requestId } : {}),
        });
      };
    },
  };
}
