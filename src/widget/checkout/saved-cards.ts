// The customer's saved cards, as the handler lists them: the pay part's
// (src/widget/parts/pay.ts), asked for with the checkout when the page names a customer.

import { call, isRecord } from '../parts/kit.ts';
import type { SavedCard } from '../state.ts';

/** The customer's active cards; an answer that is not a list is none. */
export async function savedCards(
  endpoint: string,
  customerId: string,
  signal: AbortSignal,
): Promise<SavedCard[]> {
  const { body } = await call(
    endpoint,
    `/customers/${encodeURIComponent(customerId)}/payment-instruments`,
    { signal },
  );
  if (!Array.isArray(body)) return [];
  const cards: SavedCard[] = [];
  for (const item of body) {
    if (!isRecord(item) || typeof item.token !== 'string' || item.active === false) continue;
    const card = isRecord(item.card) ? item.card : {};
    cards.push({
      token: item.token,
      last4: typeof card.last_4_digits === 'string' ? card.last_4_digits : '',
      network: typeof card.type === 'string' ? card.type : 'UNKNOWN',
    });
  }
  return cards;
}
