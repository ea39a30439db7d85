// Every route module, registered in one place, by part: the provider's API, the pages a
// shopper's browser opens, the simulator's control surface under /sandbox/, and the dashboard.
// A new area is a new module exporting `Route[]` plus one line here.

import { deviceRoutes } from './control/devices.ts';
import { outcomeRoutes } from './control/outcomes.ts';
import { paymentControlRoutes } from './control/payments.ts';
import { simulatorRoutes } from './control/simulator.ts';
import { viewRoutes } from './control/views.ts';
import { webhookRoutes } from './control/webhooks.ts';
import { dashboardRoutes } from './dashboard/serve.ts';
import type { Route } from './http/route.ts';
import { pageRoutes } from './pages/routes.ts';
import { checkoutRoutes } from './provider/checkouts.ts';
import { customerRoutes } from './provider/customers.ts';
import { markDeprecated } from './provider/deprecation.ts';
import { merchantRoutes } from './provider/merchant.ts';
import { operatorRoutes } from './provider/operators.ts';
import { payoutRoutes } from './provider/payouts.ts';
import { readerRoutes } from './provider/readers.ts';
import { receiptRoutes } from './provider/receipts.ts';
import { transactionRoutes } from './provider/transactions.ts';

export const routeModules: readonly (readonly Route[])[] = [
  // The provider's API (the seed's routes).
  checkoutRoutes,
  customerRoutes,
  transactionRoutes,
  merchantRoutes,
  payoutRoutes,
  receiptRoutes,
  readerRoutes,
  operatorRoutes,
  // What a shopper's browser opens: 3DS, bank pages, boleto, TermUrl.
  pageRoutes,
  // The control surface, /sandbox/*.
  simulatorRoutes,
  paymentControlRoutes,
  deviceRoutes,
  viewRoutes,
  webhookRoutes,
  outcomeRoutes,
  // The dashboard's page and script.
  dashboardRoutes,
].map(markDeprecated);
