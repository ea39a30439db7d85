/**
 * What can go wrong around a hook, and how the handler's log says it: what happened, and what
 * happens next.
 */
import type { LogEntry } from '../types.ts';

export type HookName = 'onPaid' | 'onFailed';

/** Something went wrong around a hook; the reporter never throws. */
export type OutcomeProblem =
  /** The hook threw; its claim was released for the next report. */
  | { kind: 'hook-threw'; error: unknown }
  /** The store could not take the claim: no hook ran. */
  | { kind: 'claim-failed'; error: unknown }
  /**
   * The hook threw (`error`) and the store could not free its claim (`releaseError`): it runs
   * again once the lease ends, not on a report before.
   */
  | { kind: 'release-failed'; error: unknown; releaseError: unknown }
  /** The hook ran; the store could not record it yet (retried in the background). */
  | { kind: 'complete-failed'; error: unknown; final: boolean }
  /** The hook is still running when its lease ends: another report may take it over. */
  | { kind: 'lease-ran-out'; leaseMs: number }
  /**
   * This report claimed the hook over an earlier claim whose lease ran out undone: its holder
   * died or outlives its lease, or it ended while the store was away (the hook threw and the
   * release failed; the hook returned and its mark never landed; the claim's own answer was
   * lost). The store holds only that claim's token, not which of these it was, so the line
   * says "may have run twice"; an operator tells the runs apart by this checkout's earlier
   * lines (`release-failed`...).
   */
  | { kind: 'lease-taken-over'; leaseMs: number }
  /** The hook returned after its lease ran out and another report took the claim over. */
  | { kind: 'lease-lost'; elapsedMs: number; leaseMs: number }
  /**
   * The hook's `done(tx)` found the outcome another run's (`LeaseLostError`): its
   * transaction rolled back; the other run's stands once `done`. Nothing ran twice.
   */
  | { kind: 'rolled-back'; elapsedMs: number; done: boolean }
  /**
   * The hook called `done(tx)` but its transaction did not commit the mark (it rolled
   * back, or the hook returned before committing): released, so the next report runs it.
   */
  | { kind: 'not-committed' }
  /** The hook called `done(tx)`; the store could not be asked whether its mark committed. */
  | { kind: 'readback-failed'; error: unknown }
  /**
   * The hook threw after its lease ran out and another run took the outcome over (and may
   * have done it): that run's stands, this one is not run again for its error.
   */
  | { kind: 'threw-taken-over'; error: unknown; elapsedMs: number; done: boolean }
  /** The hook threw after its transaction committed the outcome done: it does not run again. */
  | { kind: 'threw-after-done'; error: unknown }
  /** The checkout is another merchant's (a webhook or a request named it): no hook ran. */
  | { kind: 'other-merchant'; merchantCode: string }
  /**
   * `ageMs` after the checkout ended, no webhook had reported it, long after one should have:
   * the provider may not reach `webhookUrl`. reconcile() ran the hook then, or (`ranFirst`)
   * ran it sooner, before a webhook was due, and none has come since (lost-webhooks.ts).
   */
  | { kind: 'no-webhook'; ageMs: number; webhookUrl: string; ranFirst: boolean };

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** What each problem means for the hook, by kind: the log level and what happens next. */
function problemText(hook: HookName, problem: OutcomeProblem): [LogEntry['level'], string] {
  switch (problem.kind) {
    case 'hook-threw':
      return ['error', `${hook} threw; it will run again on the next report of this checkout`];
    case 'claim-failed':
      return [
        'error',
        `the store could not be asked; ${hook} did not run: a webhook is answered 503 so the provider delivers again, and reconcile() runs it once the store answers`,
      ];
    case 'release-failed':
      return [
        'error',
        `${hook} threw, and the store could not release its claim (${message(problem.releaseError)}); it is released once the store answers (at the latest, its lease ends: hooks.leaseMs), and runs again on the next report`,
      ];
    case 'complete-failed':
      return problem.final
        ? [
            'error',
            `${hook} ran but the store never recorded it; a report after its lease may run it again`,
          ]
        : [
            'warn',
            `${hook} ran but the store could not record it yet; trying again in the background`,
          ];
    case 'lease-ran-out':
      return [
        'warn',
        `${hook} is still running after its lease (hooks.leaseMs, ${problem.leaseMs} ms): another report may run it again alongside; set hooks.leaseMs above your slowest ${hook}`,
      ];
    case 'lease-taken-over':
      return [
        'warn',
        `${hook} took over a claim whose lease (hooks.leaseMs, ${problem.leaseMs} ms) ran out undone: it may have run twice`,
      ];
    case 'lease-lost':
      return [
        'warn',
        `${hook} returned after ${Math.round(problem.elapsedMs)} ms, past its lease (hooks.leaseMs, ${problem.leaseMs} ms), and another report took it over: it may have run twice; set hooks.leaseMs above your slowest ${hook}`,
      ];
    case 'rolled-back':
      return [
        'warn',
        `${hook} outlived its lease (hooks.leaseMs) and another run took the outcome over: done(tx) threw LeaseLostError and this run's transaction rolled back; ${problem.done ? "the other run's stands" : 'the other run holds it, not yet done'}`,
      ];
    case 'not-committed':
      return [
        'error',
        `${hook} called done(tx) but its transaction did not commit; it will run again on the next report of this checkout`,
      ];
    case 'readback-failed':
      return [
        'error',
        `${hook} called done(tx), and the store could not be asked whether it committed; a report after its lease finds out (a webhook is answered 503)`,
      ];
    case 'threw-taken-over':
      return [
        'warn',
        `${hook} threw after its lease (hooks.leaseMs) ran out, and another run took the outcome over: ${problem.done ? "that run's stands" : 'it runs there'}`,
      ];
    case 'threw-after-done':
      return [
        'error',
        `${hook} threw after its transaction committed done(tx): the outcome counts as done and the hook does not run again`,
      ];
    case 'other-merchant':
      return [
        'warn',
        `${hook} did not run: the checkout is merchant ${problem.merchantCode}'s, not provider.merchantCode's`,
      ];
    case 'no-webhook':
      return [
        'warn',
        problem.ranFirst
          ? `reconcile() ran ${hook} before its webhook was due, which no webhook had done ${Math.round(problem.ageMs / 1000)} s after the checkout ended: check that the provider reaches ${problem.webhookUrl} (the URL, a firewall, a proxy)`
          : `reconcile() ran ${hook} ${Math.round(problem.ageMs / 1000)} s after the checkout ended, which no webhook had done: unless a webhook's run of it failed (logged before), check that the provider reaches ${problem.webhookUrl} (the URL, a firewall, a proxy)`,
      ];
  }
}

/**
 * The log entry for a problem: what happened and what happens next, its stable name
 * (`problem`, the kind), and its fields (an error as its message).
 */
export function problemEntry(
  hook: HookName,
  checkoutId: string,
  problem: OutcomeProblem,
): LogEntry {
  const [level, text] = problemText(hook, problem);
  const { kind, ...detail } = problem;
  const fields: Record<string, unknown> = detail;
  if ('error' in detail) fields.error = message(detail.error);
  if ('releaseError' in detail) fields.releaseError = message(detail.releaseError);
  return { level, message: text, problem: kind, hook, checkoutId, ...fields };
}
