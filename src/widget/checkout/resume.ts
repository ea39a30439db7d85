// A checkout that is still pending when the widget loads may have a step open: the shopper
// reloaded during the 3DS challenge, or came back from the bank's page with the back button,
// and the bank may approve it at any moment; or a boleto's voucher waits to be paid. The
// handler gives the step back beside the checkout (`next_step`, `payment_type`, `boleto`);
// this tab remembers which step it last ran (words.ts `stepOf`). What to show then is
// decided here: the step again, the bank's answer awaited when the step cannot be shown
// again, or the form.

import { actionFor } from '../../next-step/action.ts';
import type { Action, ChallengeMode, CheckoutView } from '../../next-step/types.ts';
import { PAYING } from '../methods/pay.ts';
import { isPaymentMethodId } from '../parts/kit.ts';

/**
 * What to show instead of the form for checkout `answer` as the handler read it (with its
 * open step, if any), given what this tab remembers (`here`), or undefined for the form:
 * - a boleto's voucher: shown again, pending;
 * - a challenge for the iframe: in the iframe again (posted again to the issuer);
 * - a full-page challenge or a bank's page: offered again behind a button (`offer`), never
 *   followed by itself;
 * - none from the handler although this tab had one open (the handler no longer holds it):
 *   the bank's answer is awaited (`waiting`);
 * - nothing when this tab left it for another card.
 */
export function reopen(
  answer: CheckoutView,
  mode: ChallengeMode,
  here: string | null,
): Action | undefined {
  const { next_step: step, payment_type: method } = answer;
  if (answer.status !== 'PENDING' || here?.endsWith(':left')) return undefined;
  // A boleto issued, paid at a bank days later: its voucher again (a card would be refused).
  if (answer.boleto) return { kind: 'voucher', checkout: answer };
  let action: Action | undefined;
  if (typeof method === 'string') {
    // A method this widget does not know opens nothing: actionFor leaves it to the form.
    action = actionFor(
      202,
      { next_step: step },
      {
        mode,
        hasRedirectUrl: Boolean(answer.redirect_url),
        expects: isPaymentMethodId(method) ? PAYING[method].step : undefined,
      },
    );
    if (action?.kind === 'challenge-redirect' || action?.kind === 'apm-redirect') {
      action = { kind: 'offer', step: action };
    }
  }
  // A step this tab ran and the handler cannot give back: wait for the bank's answer.
  if (!action && here && here !== 'voucher') {
    action = { kind: 'waiting', bank: here === 'apm-redirect' };
  }
  return action;
}
