/**
 * What the handler records about payments themselves: checkouts created and payment attempts
 * by outcome (around the provider client's `create` and `process`, which only the routes
 * call), a span and `payment_widget.hook.duration` per hook run, a span per reconciliation
 * with `payment_widget.reconcile.open` from its report, and the rate limits' refusals.
 */
import type { Attributes } from '@opentelemetry/api';
import { isFinalStatus } from '../../domain/checkout.ts';
import type { Checkout } from '../../schemas/index.ts';
import type { HookRun } from '../outcomes/done.ts';
import type { ReconcileReport } from '../outcomes/reconcile.ts';
import type { ProcessResult, ProviderClient } from '../provider/client.ts';
import { ATTR, type HookResult, type PaymentOutcome, SPAN } from './names.ts';
import { endSpan, errorTypeOf, type Recorder, secondsSince } from './recorder.ts';

type Current = () => Recorder | undefined;

/**
 * A payment attempt's outcome as the shopper's answer says it. A checkout still pending
 * without a next step (a voucher to pay later) waits on the shopper too: `next_step`.
 */
function outcomeOf(result: ProcessResult): PaymentOutcome {
  if (result.kind === 'next_step') return 'next_step';
  const status = result.checkout.status;
  if (status === 'PAID') return 'paid';
  return isFinalStatus(status) ? 'failed' : 'next_step';
}

/** The client the routes use: the same, counting checkouts created and payment attempts. */
export function countingClient(client: ProviderClient, current: Current): ProviderClient {
  const { create, process } = client.checkouts;
  const count = (outcome: PaymentOutcome, method: string) => {
    const recorder = current();
    recorder?.metrics?.payments.add(1, { [ATTR.outcome]: outcome, [ATTR.paymentMethod]: method });
    // On the request's span too: a trace then says whether the card paid or was declined,
    // which its status does not (a decline is the shopper's answer, not the handler's error).
    recorder?.api.trace.getActiveSpan()?.setAttribute(ATTR.outcome, outcome);
  };
  return {
    ...client,
    checkouts: {
      ...client.checkouts,
      async create(body, at) {
        const checkout = await create(body, at);
        current()?.metrics?.checkoutsCreated.add(1);
        return checkout;
      },
      async process(id, body, at) {
        let result: ProcessResult;
        try {
          result = await process(id, body, at);
        } catch (error) {
          count('error', body.payment_type);
          throw error;
        }
        count(outcomeOf(result), body.payment_type);
        return result;
      },
    },
  };
}

type Hook<T extends Checkout> = (checkout: T, run: HookRun) => unknown;

/**
 * The hook, wrapped to record each run. `timed_out`: it returned after its lease
 * (`hooks.leaseMs`) ran out, so another report may have run it alongside.
 */
export function tracedHook<T extends Checkout>(
  name: 'onPaid' | 'onFailed',
  hook: Hook<T> | undefined,
  leaseMs: number,
  current: Current,
): Hook<T> | undefined {
  if (hook === undefined) return undefined;
  return async (checkout, run) => {
    const recorder = current();
    if (recorder === undefined) return hook(checkout, run);
    const { api, tracer, metrics } = recorder;
    const span = tracer.startSpan(`${SPAN.hook} ${name}`, {
      attributes: { [ATTR.hook]: name, [ATTR.checkoutId]: checkout.id ?? '' },
    });
    const started = performance.now();
    let result: HookResult = 'ran';
    const attributes: Attributes = { [ATTR.hook]: name };
    try {
      return await api.context.with(api.trace.setSpan(api.context.active(), span), () =>
        hook(checkout, run),
      );
    } catch (error) {
      result = 'threw';
      attributes[ATTR.errorType] = errorTypeOf(error);
      throw error;
    } finally {
      const seconds = secondsSince(started);
      if (result === 'ran' && seconds * 1000 > leaseMs) result = 'timed_out';
      attributes[ATTR.hookResult] = result;
      metrics?.hookDuration.record(seconds, {
        [ATTR.hook]: name,
        [ATTR.hookResult]: result,
      });
      endSpan(api, span, attributes);
    }
  };
}

/** Runs one reconciliation in a span of its own, its provider calls and hooks inside. */
export async function tracedReconcile(
  run: () => Promise<ReconcileReport>,
  current: Current,
): Promise<ReconcileReport> {
  const recorder = current();
  if (recorder === undefined) return run();
  const { api, tracer } = recorder;
  const span = tracer.startSpan(SPAN.reconcile);
  const attributes: Attributes = {};
  try {
    const report = await api.context.with(api.trace.setSpan(api.context.active(), span), run);
    recorder.reconcileOpen = report.open;
    for (const [field, name] of Object.entries(ATTR.reconcile)) {
      attributes[name] = report[field as keyof ReconcileReport];
    }
    // It resolves when the provider could not be asked (down, a wrong key): the call failed
    // in part all the same. Which way each read failed is on its own client span.
    if (report.errors > 0) attributes[ATTR.errorType] = '_OTHER';
    return report;
  } catch (error) {
    attributes[ATTR.errorType] = errorTypeOf(error);
    throw error;
  } finally {
    endSpan(api, span, attributes);
  }
}

/** One request refused by a card-testing limit (its name, e.g. `paymentsPerCheckout`). */
export function countRefusal(limit: string, current: Current): void {
  current()?.metrics?.rateLimitRefused.add(1, { [ATTR.limit]: limit });
}

/**
 * One violation reported on a payment page. The directive is one of a short list (a
 * browser's own word otherwise counts as `_OTHER`): what a report says is the sender's, and
 * a metric's attributes must stay few.
 */
export function countViolation(kind: string, directive: string, current: Current): void {
  current()?.metrics?.pageViolations.add(1, {
    [ATTR.violationKind]: kind,
    [ATTR.violationDirective]: DIRECTIVES.has(directive) ? directive : '_OTHER',
  });
}

const DIRECTIVES = new Set([
  'integrity',
  'default-src',
  'script-src',
  'script-src-elem',
  'script-src-attr',
  'style-src',
  'style-src-elem',
  'style-src-attr',
  'img-src',
  'font-src',
  'connect-src',
  'frame-src',
  'child-src',
  'worker-src',
  'media-src',
  'object-src',
  'manifest-src',
  'form-action',
  'frame-ancestors',
  'base-uri',
  'require-trusted-types-for',
  'trusted-types',
]);
