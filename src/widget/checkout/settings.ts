// What of the page's settings the widget ignores, told once each to the page's developer in
// the console (in the diagnostics part's words, src/widget/parts/diagnostics.ts): an unknown
// name in `payment-methods`, an unknown `challenge`, an `order` attribute that looks like
// JSON and does not parse, an attribute written "false" (which is on), a method it names
// that the checkout does not offer. The pay part's (src/widget/parts/pay.ts): checked once
// the form is on screen, so the form's first paint carries none of it.

import type { ChallengeMode } from '../../next-step/types.ts';
import type { PaymentMethodId } from '../methods/index.ts';
import { PAYING } from '../methods/pay.ts';
import type { Problem } from '../parts/diagnostics.ts';
import { isPaymentMethodId, METHOD_IDS } from '../parts/kit.ts';
import type { PayContext } from './context.ts';

const CHALLENGE_MODES: readonly string[] = ['auto', 'iframe', 'redirect'];

/**
 * Whether `order` is an object a server render wrote as the attribute ("[object Object]"):
 * no order, but the sign of one the page's script may still set.
 */
export const renderedObject = (order: unknown): boolean => order === String({});

/** The challenge mode to follow: an unknown one is ignored (auto). */
export function challengeMode(value: string): ChallengeMode {
  return CHALLENGE_MODES.includes(value) ? (value as ChallengeMode) : 'auto';
}

/**
 * Tells the page's developer of a mistake in the page, once, in the console: in the
 * diagnostics part's words, which a correct page never loads.
 */
export function diagnose(c: PayContext, problem: Problem, ...values: string[]): void {
  c.parts.load('diagnostics').then(
    (part) => part.tell(problem, values),
    // The words could not load: what there is, unworded.
    () => console.warn('payment-widget:', problem, ...values),
  );
}

/**
 * Tells the page's developer what of its settings the widget ignores, if anything.
 * `offered`: the methods the form shows (none when it could show none), and whether the
 * checkout has a redirect_url (unknown when it did not arrive).
 */
export function diagnoseSettings(c: PayContext, offered?: string[], redirect?: boolean): void {
  const { paymentMethods: methods = '', challenge, order } = c.host;
  const names = methods.split(/\s+/);
  const unknown = names.filter((name) => name && !isPaymentMethodId(name));
  if (unknown.length > 0) diagnose(c, 'methods', methods, unknown.join(' '), METHOD_IDS.join(' '));
  // Named, and known, but not on the form ("Try another card" shows the card alone).
  const left = names.filter(
    (m): m is PaymentMethodId => isPaymentMethodId(m) && !!offered && !offered.includes(m),
  );
  if (left.length > 0 && !c.cardOnly) {
    const bank = !redirect && left.some((m) => PAYING[m].step === 'bank');
    diagnose(c, 'unoffered', methods, left.join(' '), bank ? '1' : '');
  }
  // Unset (undefined, as React passes it for a prop left out) is the default, no mistake.
  if (challenge && challengeMode(challenge) !== challenge) diagnose(c, 'challenge', challenge);
  // An attribute counts by being there: donate="false" is on, which a server render that
  // writes `{false}` so on a custom element (Astro does) did not mean.
  for (const { name, value } of c.host.attributes)
    if (value === 'false') diagnose(c, 'false', name);
  // The attribute's converter keeps what does not parse as text: text on purpose, or JSON
  // gone wrong ('{"sku": mug}'), which the developer hears of.
  // An object a server render wrote as the attribute is told of as a missing checkout.
  if (typeof order !== 'string' || renderedObject(order) || !/^\s*[[{]/.test(order)) return;
  try {
    JSON.parse(order);
  } catch (error) {
    diagnose(c, 'order', order, String(error));
  }
}
