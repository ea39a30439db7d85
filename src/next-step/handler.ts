import type { Action, NextStepContext, Outcome } from './types.ts';
import { isSafeUrl } from './url.ts';

export type Handler<K extends Action['kind']> = (
  action: Extract<Action, { kind: K }>,
  ctx: NextStepContext,
) => Promise<Outcome>;

export type NavigateRequest = Parameters<NonNullable<NextStepContext['navigate']>>[0];

/** The refusal every handler returns for a URL that isSafeUrl rejects. */
export function refused(field: string): Outcome {
  return {
    kind: 'refused',
    code: 'unsafe_next_step',
    // Only https, or http on a loopback host, is followed (./url.ts).
    message: `${field} is not a safe URL`,
  };
}

/**
 * Returns the name of the first field whose URL is present and unsafe, or
 * undefined when every present URL may be followed.
 */
export function firstUnsafe(urls: Record<string, string | undefined>): string | undefined {
  for (const [field, url] of Object.entries(urls)) {
    if (url !== undefined && !isSafeUrl(url)) return field;
  }
  return undefined;
}

/** `next_step.method`, read leniently: anything but GET is sent as a POST, as the provider does. */
export function methodOf(method: string | undefined): 'GET' | 'POST' {
  return method?.toUpperCase() === 'GET' ? 'GET' : 'POST';
}

/** Rejects with the abort reason, as fetch does, so callers treat both alike. */
export function abortedError(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The next step was aborted', 'AbortError');
}
