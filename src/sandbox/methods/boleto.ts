// Boleto, a Brazilian voucher: a process request issues it (a PENDING BOLETO payment; the
// checkout stays PENDING but is processed) and answers the checkout with the voucher's line
// and page. The bank's payment comes later: POST /sandbox/checkouts/{id}/settle
// (../control/payments.ts) pays or fails it.
import { issueBoleto } from '../simulation/payments.ts';
import type { SandboxMethod } from './types.ts';

export const boleto: SandboxMethod = {
  name: 'Boleto',
  currencies: ['BRL'],
  process(ctx, checkout, _body, origin) {
    issueBoleto(ctx, checkout, `${origin}/sandbox/boleto/${encodeURIComponent(checkout.id)}`);
    return undefined;
  },
};
