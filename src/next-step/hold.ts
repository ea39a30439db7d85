import { confirmLoop } from './poll.ts';
import { abortReason } from './runner.ts';
import type { NextStepContext, Outcome } from './types.ts';

/** What a step on screen may do while it is held: end it, or have the backend asked sooner. */
export interface Held {
  end(outcome: Outcome | Promise<Outcome>): void;
  nudge(): void;
}

/**
 * Shows `view` in the widget and reads the checkout back (confirmLoop) until it is final or
 * the time is up (pending), the step ends it (`end`: cancelled, or a navigation), or the
 * element aborts (rejects with the signal's reason, as fetch does). `view` goes at the end.
 * `wire` runs once `view` is on the page, and returns what to undo at the end.
 */
export function hold(
  ctx: NextStepContext,
  view: HTMLElement,
  wire: (held: Held) => (() => void) | undefined,
): Promise<Outcome> {
  if (ctx.signal.aborted) return Promise.reject(abortReason(ctx.signal));
  // A pending checkout's answer carries its open step (`next_step`, `payment_type`): the
  // outcome, which the element passes on in its events, does not.
  const loop = confirmLoop(
    (signal) =>
      ctx
        .confirm(signal)
        .then(({ next_step: _step, payment_type: _method, ...checkout }) => checkout),
    ctx.isFinal,
    ctx.poll,
  );
  return new Promise<Outcome>((resolve, reject) => {
    let undo: (() => void) | undefined;
    const finish = (settle: () => void): void => {
      loop.stop();
      ctx.signal.removeEventListener('abort', onAbort);
      undo?.();
      view.remove();
      settle();
    };
    const onAbort = (): void => finish(() => reject(abortReason(ctx.signal)));
    ctx.signal.addEventListener('abort', onAbort, { once: true });
    loop.result.then(
      (outcome) => finish(() => resolve(outcome)),
      (error: unknown) => finish(() => reject(error)),
    );
    ctx.container.append(view);
    undo =
      wire({ end: (outcome) => finish(() => resolve(outcome)), nudge: loop.nudge }) ?? undefined;
    loop.start();
  });
}
