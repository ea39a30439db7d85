// Mistakes in the page, for its developer: once each, in the console, and nothing in a
// correct page. The words are a part that loads only when there is something to say
// (./parts/diagnostics.ts): a correct page never downloads them.
import { isPaymentMethodId } from '../domain/checkout.ts';
import type { ChallengeMode } from '../next-step/types.ts';
import type { BackendError } from './checkout/backend.ts';
import type { Problem } from './parts/diagnostics.ts';
import { importPart } from './parts/imports.ts';

export function diagnose(problem: Problem, ...values: string[]): void {
  importPart('diagnostics').then(
    (part) => part.tell(problem, values),
    // The words could not load: what there is, unworded.
    () => console.warn('payment-widget:', problem, ...values),
  );
}

/**
 * An answer that stops the payment because of the page: a 404 (nothing, or no such route
 * or checkout, at `endpoint`) or a 403 (the handler refused this page's origin).
 */
export function diagnoseAnswer(error: BackendError): void {
  const { status, _call, message, code } = error;
  if (status !== 404 && status !== 403) return;
  diagnose('endpoint', _call, `${status}`, message, code === 'BACKEND_ERROR' ? '' : '1');
}

const CHALLENGE_MODES: readonly string[] = ['auto', 'iframe', 'redirect'];

/** The challenge mode to follow: an unknown one is ignored (auto). */
export function challengeMode(value: string): ChallengeMode {
  return CHALLENGE_MODES.includes(value) ? (value as ChallengeMode) : 'auto';
}

/** What of the page's settings the widget ignores: unknown method names, an unknown challenge. */
export function diagnoseSettings(methods: string | undefined, challenge: string): void {
  const unknown = (methods ?? '').split(/\s+/).filter((name) => name && !isPaymentMethodId(name));
  if (unknown.length > 0) diagnose('methods', methods ?? '', unknown.join(' '));
  if (challengeMode(challenge) !== challenge) diagnose('challenge', challenge);
}
