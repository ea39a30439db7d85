// Paying by card: what is wrong with each card field (the number's Luhn check, an expiry
// still to come, 'expired' when past, the CVV's length for the network, a US ZIP code, the
// installments), the network as typed, and the process body: the card, or a saved card's
// token, and the options the merchant turned on. A card's answer may call for a 3-D Secure
// challenge.
import {
  checkExpiry,
  detectNetwork,
  digitsOnly,
  isCardNumber,
  isCvv,
  isZip,
} from '../../../card/index.ts';
import type { Values } from '../../form/fields.ts';
import { typed } from '../details.ts';
import type { MethodPay, ProcessBody } from '../types.ts';

/** The network the number belongs to, as far as it is typed. */
const network = (values: Values) => (values.number ? detectNetwork(values.number) : undefined);

export const cardPay: MethodPay = {
  checks: {
    number: (value) => isCardNumber(digitsOnly(value)),
    expiry: (value) => {
      const { isValid, expired } = checkExpiry(value);
      return isValid || (expired ? 'expired' : false);
    },
    cvv: (value, values) => isCvv(value, network(values) ?? 'UNKNOWN'),
    zip: isZip,
    installments: (value) => {
      const n = Number(value);
      return Number.isInteger(n) && n >= 1 && n <= 12;
    },
  },

  body(input, shown) {
    const { values: v } = input;
    const body: Omit<ProcessBody, 'payment_type'> = {};
    if (input.saved) {
      body.token = input.saved.token;
      body.customer_id = input.saved.customerId;
    } else {
      const number = digitsOnly(typed(v.number));
      const expiry = checkExpiry(typed(v.expiry));
      body.card = {
        name: typed(v.name),
        number,
        expiry_month: expiry.month ?? '',
        expiry_year: expiry.year ?? '',
        cvv: digitsOnly(typed(v.cvv)),
        last_4_digits: number.slice(-4),
        // The card module names networks as the provider does (VISA, MASTERCARD, ...).
        type: detectNetwork(number),
      };
      // The provider takes five digits; a ZIP+4 keeps its first five.
      if (shown.showZipCode) body.card.zip_code = digitsOnly(typed(v.zip)).slice(0, 5);
      // The mandate names the browser the shopper agreed in.
      if (input.saveCard) body.mandate = { type: 'recurrent', user_agent: navigator.userAgent };
    }
    if (shown.showInstallments && v.installments) body.installments = Number(v.installments);
    if (shown.showEmail && v.email) body.personal_details = { email: typed(v.email) };
    return body;
  },

  step: 'challenge',
  network,
};
