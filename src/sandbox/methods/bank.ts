// The methods paid on the bank's own page (iDEAL, Bancontact, BLIK): a process request opens
// the bank's page (../pages/routes.ts) and answers 202 with it as the next step; the page, as
// the shopper answers it there, pays or fails the checkout and returns to its redirect_url.
import { json } from '../../http/json.ts';
import type { PaymentMethodId } from '../../schemas/index.ts';
import { missing } from '../errors.ts';
import { newToken } from '../simulation/payments.ts';
import type { SandboxMethod } from './types.ts';

/** The bank's page of `method` (`name` on its page), for the currencies its scheme settles in. */
export function bankMethod(
  method: PaymentMethodId,
  name: string,
  currencies: readonly string[],
): SandboxMethod {
  return {
    name,
    currencies,
    process(ctx, checkout, _body, origin) {
      if (checkout.redirect_url === undefined) {
        throw missing('redirect_url', `the checkout needs a redirect_url to pay with ${method}`);
      }
      const tx = newToken();
      ctx.store.update('checkouts', checkout.id, (c) => {
        c.pending = { kind: 'bank', method, tx, settled: false };
      });
      const url = `${origin}/sandbox/bank/${method}/${encodeURIComponent(checkout.id)}`;
      return json(
        {
          next_step: {
            url,
            method: 'GET',
            redirect_url: checkout.redirect_url,
            mechanism: ['browser'],
            payload: { tx },
            full: `${url}?tx=${tx}`,
          },
        },
        202,
      );
    },
  };
}
