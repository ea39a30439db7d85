// What to do with a process response that is not yet a final outcome: one
// handler per Action kind, chosen from a table (as Adyen's actionTypes), so the
// element never grows a chain of ifs about 3DS and banks.

import { actionFor } from './action.ts';
import type { StepHandler } from './handler.ts';
import { apmRedirect } from './handlers/apm-redirect.ts';
import { challengeIframe } from './handlers/challenge-iframe.ts';
import { challengeRedirect } from './handlers/challenge-redirect.ts';
import { offer, waiting } from './handlers/resume.ts';
import { voucher } from './handlers/voucher.ts';
import type { Action, NextStepContext, Outcome } from './types.ts';
import { isSafeBrowserUrl } from './url.ts';

export type { ActionContext } from './action.ts';
export { nextStepStyles } from './styles.ts';
export type * from './types.ts';
export { actionFor, isSafeBrowserUrl };

const handlers: { [K in Action['kind']]: StepHandler<K> } = {
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
  // TypeScript cannot correlate handlers[action.kind] with action's own member
  // of the union; the mapped type above guarantees they match.
  const handler = handlers[action.kind] as StepHandler<Action['kind']>;
  return handler(action as never, ctx);
}
