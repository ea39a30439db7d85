/**
 * How a route hands a checkout it read to the outcome hooks. The shopper never waits on the
 * merchant: `PUT` and `GET /checkouts/:id` and `GET /return` answer as soon as the provider's
 * status is read, and the hook they start runs in the background under the same claim and
 * lease as any other report (report.ts), so it still runs once, and a crash mid-hook is still
 * recovered (the webhook's redelivery, or `reconcile()`). `POST /webhook` waits for the hook:
 * its non-2xx is what makes the provider deliver again.
 */
import { isFinalStatus } from '../../domain/checkout.ts';
import type { Checkout } from '../../schemas/index.ts';
import type { Logger } from '../types.ts';
import type { OpenSteps } from './open-steps.ts';
import type { Watchlist } from './reconcile.ts';
import type { OutcomeResult, Reporter } from './report.ts';

export interface Dispatcher {
  /** Runs the hook for a final status and resolves once it has run (or could not). */
  confirm(checkout: Checkout): Promise<OutcomeResult>;
  /** After `running`: the webhook's `Retry-After`, when that claim's lease ends. */
  retryAfterS(checkout: Checkout): Promise<number>;
  /**
   * Starts the hook for a final status and resolves at once, or after at most `waitMs`.
   * `keepAlive` is the platform's `waitUntil`, when the request has one. Never rejects: a
   * hook's problems are logged by the reporter.
   */
  inBackground(
    checkout: Checkout,
    keepAlive: ((promise: Promise<unknown>) => void) | undefined,
  ): Promise<void>;
}

export function createDispatcher(deps: {
  report: Reporter;
  watchlist: Pick<Watchlist, 'unwatch'>;
  /** The checkouts' open steps: a final one has none left to show. */
  steps: Pick<OpenSteps, 'close'>;
  /** How long an answer may wait for the hook it started (`hooks.waitMs`). */
  waitMs: number;
  log: Logger;
}): Dispatcher {
  const { report, watchlist, steps, waitMs, log } = deps;

  async function confirm(checkout: Checkout): Promise<OutcomeResult> {
    // Not awaited: only a pending checkout's step is ever shown, so this merely frees it early.
    if (checkout.id != null && isFinalStatus(checkout.status)) void steps.close(checkout.id);
    const outcome = await report(checkout);
    // Nothing left to reconcile; not awaited by anyone who needs the answer.
    if (outcome === 'ran' && checkout.id != null) void watchlist.unwatch(checkout.id);
    return outcome;
  }

  return {
    confirm,
    retryAfterS: report.retryAfterS,
    inBackground(checkout, keepAlive) {
      // Most reads are of a pending checkout: nothing to start, nothing to keep alive.
      if (!isFinalStatus(checkout.status)) return Promise.resolve();
      const running = confirm(checkout);
      if (keepAlive !== undefined) {
        try {
          keepAlive(running);
        } catch (error) {
          log({ level: 'warn', message: `waitUntil threw: ${String(error)}` });
        }
      }
      if (waitMs <= 0) return Promise.resolve();
      let timer: ReturnType<typeof setTimeout> | undefined;
      const waited = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, waitMs);
      });
      return Promise.race([running.then(() => undefined), waited]).finally(() =>
        clearTimeout(timer),
      );
    },
  };
}
