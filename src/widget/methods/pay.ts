// What paying with each method takes (its `pay.ts`): the pay part's list of the methods in
// ./index.ts, one entry each (a method missing here does not compile). Checked, sent and
// followed by the pay part (../form/rules.ts, ../checkout/pay.ts, ../checkout/resume.ts).
import { bankPay } from './bank/pay.ts';
import { boletoPay } from './boleto/pay.ts';
import { cardPay } from './card/pay.ts';
import type { PaymentMethodId } from './index.ts';
import type { BodyInput, MethodPay, ProcessBody } from './types.ts';

export const PAYING: Readonly<Record<PaymentMethodId, MethodPay>> = {
  card: cardPay,
  ideal: bankPay,
  bancontact: bankPay,
  blik: bankPay,
  boleto: boletoPay,
};

/** The process body for `method` from what the shopper entered. */
export function processBody(
  method: PaymentMethodId,
  input: BodyInput,
  shown: Parameters<MethodPay['body']>[1],
): ProcessBody {
  return { payment_type: method, ...PAYING[method].body(input, shown) };
}
