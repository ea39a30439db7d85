import { isSafeBrowserUrl } from '../shared/url.ts';
import type { Action, NextStepContext, Outcome } from './types.ts';

/** Runs one kind of next step (a challenge, a redirect, a voucher) to its outcome. */
export type StepRunner<K extends Action['kind']> = (
  action: Extract<Action, { kind: K }>,
  ctx: NextStepContext,
) => Promise<Outcome>;

export type NavigateRequest = Parameters<NonNullable<NextStepContext['navigate']>>[0];

/**
 * The refusal for the first URL that isSafeBrowserUrl rejects, or undefined when every
 * one may be followed. An absent URL passes; a required one is passed as `?? ''`,
 * which no check accepts.
 */
export function refusal(urls: Record<string, string | undefined>): Outcome | undefined {
  for (const [field, url] of Object.entries(urls)) {
    if (url !== undefined && !isSafeBrowserUrl(url)) {
      // Only https, or http on a loopback host, is followed (src/shared/url.ts).
      return { kind: 'refused', code: 'UNSAFE_NEXT_STEP', message: `${field} is not a safe URL` };
    }
  }
  return undefined;
}

/** `next_step.method`, read leniently: anything but GET is sent as a POST, as the provider does. */
export function methodOf(method: string | undefined): 'GET' | 'POST' {
  return method?.toUpperCase() === 'GET' ? 'GET' : 'POST';
}

/**
 * Why a step stopped when the element aborted it: the signal's reason, as
 * fetch rejects with. Safari before 15.4 has neither `reason` nor
 * `throwIfAborted`; there it is an AbortError of our own.
 */
export function abortReason(signal: AbortSignal): unknown {
  return 'reason' in signal
    ? signal.reason
    : new DOMException('This operation was aborted', 'AbortError');
}
