// Paying on the bank's own page (iDEAL, Bancontact, BLIK): who pays, and the answer sends the
// shopper to the bank's page, which returns to the checkout's redirect_url.
import { payer } from '../details.ts';
import type { MethodPay } from '../types.ts';

export const bankPay: MethodPay = {
  checks: {},
  body: (input) => ({ personal_details: payer(input.values) }),
  step: 'bank',
};
