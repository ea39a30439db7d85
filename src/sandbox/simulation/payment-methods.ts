// Which payment methods the sandbox merchant offers, and for which currencies. The default
// merchant offers all five; each APM is bound to the currency its scheme
// settles in (iDEAL and Bancontact: EUR, BLIK: PLN, boleto: BRL), as with the real provider.

import { PAYMENT_METHOD_IDS, type PaymentMethodId } from '../../domain/checkout.ts';

const CURRENCIES: Record<PaymentMethodId, readonly string[] | 'any'> = {
  card: 'any',
  ideal: ['EUR'],
  bancontact: ['EUR'],
  blik: ['PLN'],
  boleto: ['BRL'],
};

export function methodAvailable(method: PaymentMethodId, currency: string | undefined): boolean {
  const allowed = CURRENCIES[method];
  return currency === undefined || allowed === 'any' || allowed.includes(currency);
}

export function availableMethods(currency: string | undefined): PaymentMethodId[] {
  return PAYMENT_METHOD_IDS.filter((m) => methodAvailable(m, currency));
}
