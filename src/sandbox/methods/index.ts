// The payment methods the sandbox simulates, each in its own module, in the order the
// merchant's payment methods list them; each bound to the currencies its scheme settles in
// (iDEAL and Bancontact: EUR, BLIK: PLN, boleto: BRL), as with the real provider. The process
// body names one of the schemas' methods (src/schemas/methods/), and the widget offers the
// same list (src/widget/methods/): test/node/layout/methods.test.ts holds the three to it.
import type { PaymentMethodId } from '../../schemas/index.ts';
import { bankMethod } from './bank.ts';
import { boleto } from './boleto.ts';
import { card } from './card.ts';
import type { SandboxMethod } from './types.ts';

export const SANDBOX_METHODS = {
  card,
  ideal: bankMethod('ideal', 'iDEAL', ['EUR']),
  bancontact: bankMethod('bancontact', 'Bancontact', ['EUR']),
  blik: bankMethod('blik', 'BLIK', ['PLN']),
  boleto,
} as const satisfies Record<PaymentMethodId, SandboxMethod>;

/** Whether the merchant offers `method` for `currency` (any currency when none is named). */
export function methodAvailable(method: PaymentMethodId, currency: string | undefined): boolean {
  const allowed = SANDBOX_METHODS[method].currencies;
  return currency === undefined || allowed === 'any' || allowed.includes(currency);
}

/** The methods the merchant offers for `currency`, in their order. */
export function availableMethods(currency: string | undefined): PaymentMethodId[] {
  return (Object.keys(SANDBOX_METHODS) as PaymentMethodId[]).filter((m) =>
    methodAvailable(m, currency),
  );
}
