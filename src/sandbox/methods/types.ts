// What a payment method is to the sandbox: the currencies it settles and how a process
// request pays with it, as the provider would answer. Each method's module says it;
// ./index.ts lists them. The pages a shopper opens to finish a payment (the 3-D Secure
// challenge, the bank's page, the boleto voucher) are ../pages/'s.
import type { CheckoutProcessBody } from '../../schemas/index.ts';
import type { SandboxContext } from '../context.ts';
import type { CheckoutRecord, Frozen } from '../state/records.ts';

export interface SandboxMethod {
  /** What the sandbox's pages call it (iDEAL, BLIK, ...). */
  name: string;
  /** The currencies it settles ('any' for a card), as with the real provider. */
  currencies: readonly string[] | 'any';
  /**
   * Pays `checkout` as `PUT /v0.1/checkouts/{id}` asked (its body already checked against
   * the schema, the method against the currency): the answer the provider would give, or
   * undefined when that is the checkout as it now is (200). `origin` is the sandbox's own
   * URL, where its pages are.
   */
  process(
    ctx: SandboxContext,
    checkout: Frozen<CheckoutRecord>,
    body: CheckoutProcessBody,
    origin: string,
  ): Response | undefined;
}
