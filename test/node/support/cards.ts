// The card payment body every server-side suite sends (PUT /v0.1/checkouts/{id}, or the
// handler's /process): one sandbox card, a valid expiry, and the summary fields the
// provider wants beside the number.
import type { CheckoutProcessBody } from '../../../src/schemas/index.ts';

/** Three years ahead: valid whenever the suite runs, without pinning a calendar year. */
export const futureYear = String(new Date().getUTCFullYear() + 3);

/** `extra` goes beside `card`: `mandate`, `installments`, `customer_id`. */
export function cardBody(
  number: string,
  extra: Partial<CheckoutProcessBody> = {},
): CheckoutProcessBody {
  return {
    payment_type: 'card',
    card: {
      name: 'Ada Lovelace',
      number,
      expiry_month: '12',
      expiry_year: futureYear,
      cvv: '123',
      last_4_digits: number.slice(-4),
      type: number.startsWith('5') ? 'MASTERCARD' : 'VISA',
    },
    ...extra,
  };
}

/** The same body with some card fields replaced, e.g. `{ expiry_month: '13' }`; `undefined` drops one. */
export function cardBodyWith(number: string, fields: Record<string, unknown>) {
  const body = cardBody(number);
  return { ...body, card: { ...body.card, ...fields } };
}

/** A 3DS challenge's form payload, as a 202 `next_step` carries it. */
export interface ChallengePayload {
  TermUrl: string;
  MD: string;
}

/**
 * Completes a 3DS challenge at the provider the way the shopper's browser posts it
 * ("Complete authentication"), without following the redirect back to the shop: the
 * checkout is paid and no report reaches the handler.
 */
export async function authenticate(payload: ChallengePayload): Promise<void> {
  const done = await fetch(payload.TermUrl, {
    method: 'POST',
    body: new URLSearchParams({ MD: payload.MD, PaRes: 'Y' }),
    redirect: 'manual',
  });
  await done.body?.cancel();
  if (done.status >= 400) throw new Error(`TermUrl answered ${done.status}`);
}
