/**
 * How a route hands a checkout it read to the outcome hooks. The shopper never waits on the
 * merchant: `PUT` and `GET /checkouts/:id` and `GET /return` answer as soon as the provider's
 * status is read, and the hook they start runs in the background under the same claim and
 * lease as any other report (outcome.ts), so it still runs once, and a crash mid-hook is still
 * recovered (the webhook's redelivery, or `reconcile()`). `POST /webhook` waits for the hook:
 * its non-2xx is what makes the provider deliver again.
 */
import type { Context } from 'hono';
import type { Checkout } from '../schemas/index.ts';
import type { HandlerConfig } from './options.ts';
import type { OutcomeResult } from './outcome.ts';
import type { OpenCheckouts } from './reconcile.ts';

export interface Settler {
  /** Runs the hook for a final status and resolves once it has run (or could not). */
  confirm(checkout: Checkout): Promise<OutcomeResult>;
  /**
   * Starts the hook for a final status and resolves at once, or after at most `hookWaitMs`.
   * Never rejects: a hook's problems are logged by the reporter.
   */
  inBackground(checkout: Checkout, c: Context): Promise<void>;
}

/** The platform's `waitUntil`, when the request came with one (a Worker's `ctx`). */
function platformWaitUntil(c: Context): ((promise: Promise<unknown>) => void) | undefined {
  let ctx: { waitUntil?: unknown } | undefined;
  try {
    ctx = c.executionCtx;
  } catch {
    // Hono throws when the runtime passed no execution context (Node, Bun, Deno).
    return undefined;
  }
  const waitUntil = ctx?.waitUntil;
  return typeof waitUntil === 'function'
    ? (promise) => (waitUntil as (p: Promise<unknown>) => void).call(ctx, promise)
    : undefined;
}

export function createSettler(deps: {
  config: HandlerConfig;
  report(checkout: Checkout): Promise<OutcomeResult>;
  open: OpenCheckouts;
}): Settler {
  const { config, report, open } = deps;

  async function confirm(checkout: Checkout): Promise<OutcomeResult> {
    const outcome = await report(checkout);
    // Nothing left to reconcile; not awaited by anyone who needs the answer.
    if (outcome === 'ran' && checkout.id != null) void open.forget(checkout.id);
    return outcome;
  }

  return {
    confirm,
    inBackground(checkout, c) {
      const running = confirm(checkout);
      const keepAlive = config.options.waitUntil ?? platformWaitUntil(c);
      if (keepAlive !== undefined) {
        try {
          keepAlive(running);
        } catch (error) {
          config.log({ level: 'warn', message: `waitUntil threw: ${String(error)}` });
        }
      }
      if (config.hookWaitMs <= 0) return Promise.resolve();
      let timer: ReturnType<typeof setTimeout> | undefined;
      const waited = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, config.hookWaitMs);
      });
      return Promise.race([running.then(() => undefined), waited]).finally(() =>
        clearTimeout(timer),
      );
    },
  };
}
