/**
 * A checkout as the handler gives it to the browser, whichever route finds it (`POST
 * /checkouts` finding the basket's checkout, `GET /checkouts/:id`, `POST /checkouts/:id/retry`
 * answering the basket's current one): the public checkout and, while it is pending, the step
 * its last payment attempt left open (outcomes/open-steps.ts) with the method it is for. So the
 * widget resumes a 3DS challenge or a bank's page however its page named the checkout: by id,
 * or by an order whose basket the server knows.
 */
import type { Checkout } from '../../schemas/index.ts';
import type { OpenStep, OpenSteps } from '../outcomes/open-steps.ts';
import { type PublicCheckout, toPublicCheckout } from '../provider/public.ts';

/** The public checkout, with its open step while it is pending. */
export type CheckoutAnswer = PublicCheckout & Partial<OpenStep>;

/**
 * Makes checkout `id`'s answer from the provider's `checkout`; while a payment of it is on its
 * way to the provider, from the checkout `read` reads once that payment is answered.
 */
export type AnswerOf = (
  checkout: Checkout,
  id: string,
  read: () => Promise<Checkout>,
) => Promise<CheckoutAnswer>;

export function checkoutAnswers(steps: Pick<OpenSteps, 'find' | 'paid'>): AnswerOf {
  // Only a pending checkout may have a step open: a final one's is over.
  const stepOf = async (checkout: Checkout, id: string) =>
    checkout.status === 'PENDING' ? await steps.find(id) : undefined;
  return async (checkout, id, read) => {
    let step = await stepOf(checkout, id);
    if (step === 'paying') {
      await steps.paid(id);
      checkout = await read();
      step = await stepOf(checkout, id);
    }
    return { ...toPublicCheckout(checkout), ...(step === 'paying' ? {} : step) };
  };
}
