// Which payment methods the sandbox merchant offers, and for which currencies. The default
// merchant offers all five; each APM is bound to the currency its scheme
// settles in (iDEAL and Bancontact: EUR, BLIK: PLN, boleto: BRL), as with the real provider.

export const PAYMENT_METHODS = ['card', 'ideal', 'bancontact', 'blik', 'boleto'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

const CURRENCIES: Record<PaymentMethod, readonly string[] | 'any'> = {
  card: 'any',
  ideal: ['EUR'],
  bancontact: ['EUR'],
  blik: ['PLN'],
  boleto: ['BRL'],
};

export function methodAvailable(method: PaymentMethod, currency: string | undefined): boolean {
  const allowed = CURRENCIES[method];
  return currency === undefined || allowed === 'any' || allowed.includes(currency);
}

export function availableMethods(currency: string | undefined): PaymentMethod[] {
  return PAYMENT_METHODS.filter((m) => methodAvailable(m, currency));
}
