// What to do with a process response that is not yet a final outcome: one
// runner per Action kind, chosen from a table (as Adyen's actionTypes), so the
// element never grows a chain of ifs about 3DS and banks.

import { isSafeBrowserUrl } from '../shared/url.ts';
import { actionFor } from './action.ts';
import type { StepRunner } from './runner.ts';
import { apmRedirect } from './runners/apm-redirect.ts';
import { challengeIframe } from './runners/challenge-iframe.ts';
import { challengeRedirect } from './runners/challenge-redirect.ts';
import { offer, waiting } from './runners/resume.ts';
import { voucher } from './runners/voucher.ts';
import type { Action, NextStepContext, Outcome } from './types.ts';

export type { ActionContext } from './action.ts';
export { nextStepStyles } from './styles.ts';
export type * from './types.ts';
export { actionFor, isSafeBrowserUrl };

const runners: { [K in Action['kind']]: StepRunner<K> } = {
  'challenge-iframe': challengeIframe,
  'challenge-redirect': challengeRedirect,
  'apm-redirect': apmRedirect,
  voucher,
  offer,
  waiting,
};

/**
 * Runs the next step and resolves with what the element should show. Never
 * navigates or renders a URL that isSafeBrowserUrl refuses (Outcome `refused`).
 * Rejects with ctx.signal's reason when aborted (as fetch does), and with the
 * last confirm() error if polling never got a checkout at all.
 */
export function runAction(action: Action, ctx: NextStepContext): Promise<Outcome> {
  // TypeScript cannot correlate runners[action.kind] with action's own member
  // of the union; the mapped type above guarantees they match.
  const run = runners[action.kind] as StepRunner<Action['kind']>;
  return run(action as never, ctx);
}
