// The outcome control: the next card payments that match (a card, by number or last 4
// digits; an amount; or any) get the outcome set with POST /sandbox/outcomes instead of the
// card table's, so "declined, then another card pays" can be tried with the documented
// cards. Records of the store like the faults, used up one payment at a time.

import { sameAmount } from '../../schemas/currencies.ts';
import type { CardOutcomeOverride, Frozen, OutcomeRecord } from '../state/records.ts';
import type { Store } from '../state/store.ts';

/** A rule's amount is the payment's in its currency, to its minor unit (5.125 KWD, never 5.13). */
function matches(
  rule: Frozen<OutcomeRecord>,
  number: string,
  { amount, currency }: Payment,
): boolean {
  if (rule.card !== undefined) {
    const hit = rule.card.length === 4 ? number.endsWith(rule.card) : number === rule.card;
    if (!hit) return false;
  }
  return rule.amount === undefined || sameAmount(rule.amount, amount, currency);
}

interface Payment {
  readonly amount: number;
  readonly currency: string;
}

/** The outcome set for this payment, used up by it; undefined for most payments. */
export function takeOutcome(
  store: Store,
  number: string,
  payment: Payment,
): CardOutcomeOverride | undefined {
  if (store.count('outcomes') === 0) return undefined;
  for (const rule of store.values('outcomes')) {
    if (!matches(rule, number, payment)) continue;
    if (rule.remaining <= 1) store.remove('outcomes', rule.id);
    else
      store.update('outcomes', rule.id, (r) => {
        r.remaining -= 1;
      });
    return rule.outcome;
  }
  return undefined;
}
