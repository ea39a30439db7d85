// Mistakes in the page, for its developer: once each, in the console, and nothing in a
// correct page. The words are a part that loads only when there is something to say
// (./parts/diagnostics.ts): a correct page never downloads them. The pay part reaches
// these through the kit (./parts/kit.ts), and says what the handler answered
// (./checkout/report.ts).
import { isPaymentMethodId } from '../domain/checkout.ts';
import type { ChallengeMode } from '../next-step/types.ts';
import type { Problem } from './parts/diagnostics.ts';
import { importPart } from './parts/imports.ts';

export function diagnose(problem: Problem, ...values: string[]): void {
  importPart('diagnostics').then(
    (part) => part.tell(problem, values),
    // The words could not load: what there is, unworded.
    () => console.warn('payment-widget:', problem, ...values),
  );
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
