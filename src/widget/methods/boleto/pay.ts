// Paying by boleto: the payer's tax id (a CPF's 11 digits or a CNPJ's 14) and address go with
// who pays, and the answer is a voucher the shopper pays later (the checkout stays pending
// until the bank confirms it).
import { digitsOnly } from '../../../card/index.ts';
import { payer, typed } from '../details.ts';
import type { MethodPay } from '../types.ts';

export const boletoPay: MethodPay = {
  checks: {
    taxId: (value) => {
      const n = digitsOnly(value).length;
      return n === 11 || n === 14;
    },
  },
  body: ({ values: v }) => ({
    personal_details: {
      ...payer(v),
      tax_id: digitsOnly(typed(v.taxId)),
      // Boleto exists only in Brazil, so the country is not asked for.
      address: {
        line_1: typed(v.line1),
        city: typed(v.city),
        state: typed(v.state),
        postal_code: typed(v.postalCode),
        country: 'BR',
      },
    },
  }),
  step: 'voucher',
};
